#include <cuda_runtime.h>

__device__ float block_reduce(float v, float* sm) {
    int t = threadIdx.x;
    sm[t] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) sm[t] += sm[t + s];
        __syncthreads();
    }
    return sm[t];
}

__global__ void sums(const float* in, float* out) {
    __shared__ float sm[128];
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    float r = block_reduce(v, sm);
    if (threadIdx.x == 0) out[blockIdx.x] = r;
}

int main() {
    float *in, *out;
    cudaMalloc(&in, 32 * 128 * sizeof(float));
    cudaMalloc(&out, 32 * sizeof(float));
    sums<<<32, 128>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
