#include <cuda_runtime.h>
#define NB 256

__global__ void half_block(const float* in, float* out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    __syncthreads();
    if (t < 64) {
        s[t] += s[t + 64];
        __syncthreads();
    }
    if (t < 64)
        out[blockIdx.x * 64 + t] = s[63 - t];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, NB * 128 * sizeof(float));
    cudaMalloc(&out, NB * 64 * sizeof(float));
    half_block<<<NB, 128>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
