#include <cuda_runtime.h>
#define FULL 0xffffffffu

__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(FULL, v, o);
    return v;
}

__global__ void total(const float* in, float* out, int n) {
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float v = in[i];
        v = warp_sum(v);
        if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
    }
}

int main() {
    const int n = 10000;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    total<<<8, 256>>>(in, out, n);
    cudaDeviceSynchronize();
    return 0;
}
