#include <cuda_runtime.h>
#define N (64 * 256)

__global__ void accumulate(const int* v, int* acc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) *acc = 0;
    __syncthreads();
    if (i < n)
        atomicAdd(acc, v[i]);
}

int main()
{
    int *v, *acc;
    cudaMalloc(&v, N * sizeof(int));
    cudaMalloc(&acc, sizeof(int));
    cudaMemset(v, 0, N * sizeof(int));
    cudaMemset(acc, 0, sizeof(int));
    accumulate<<<N / 256, 256>>>(v, acc, N);
    cudaDeviceSynchronize();
    return 0;
}
