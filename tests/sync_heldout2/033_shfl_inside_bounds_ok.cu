#include <cuda_runtime.h>

__global__ void warp_sums(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.f;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffff, v, off);
    if (i < n) {
        if ((threadIdx.x & 31) == 0) out[i / 32] = v;
    }
}

int main() {
    const int n = 1000;
    float *a, *b;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, 32 * sizeof(float));
    warp_sums<<<(n + 255) / 256, 256>>>(a, b, n);
    cudaDeviceSynchronize();
    return 0;
}
