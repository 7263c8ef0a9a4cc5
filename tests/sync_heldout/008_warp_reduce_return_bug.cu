#include <cuda_runtime.h>
#define N 1000

__device__ float warp_reduce(float v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__global__ void sum_warps(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    float v = in[i];
    v = warp_reduce(v);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, v);
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, N * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    cudaMemset(out, 0, sizeof(float));
    sum_warps<<<(N + 127) / 128, 128>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
