#include <cuda_runtime.h>

__global__ void reverse_blocks(double* d, int n)
{
    extern __shared__ double s[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    s[t] = d[base + t];
    d[base + t] = s[blockDim.x - 1 - t];
}

int main()
{
    const int threads = 256;
    const int n = threads * 64;
    double* d;
    cudaMalloc(&d, n * sizeof(double));
    cudaMemset(d, 0, n * sizeof(double));
    reverse_blocks<<<n / threads, threads, threads * sizeof(double)>>>(d, n);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
