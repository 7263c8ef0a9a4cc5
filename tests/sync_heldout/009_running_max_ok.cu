#include <cuda_runtime.h>
#include <climits>
#define N (120 * 128)

__global__ void running_max(const int* v, int* best)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        int x = v[i];
        atomicMax(best, x);
    }
}

int main()
{
    int *v, *best;
    int init = INT_MIN;
    cudaMalloc(&v, N * sizeof(int));
    cudaMalloc(&best, sizeof(int));
    cudaMemset(v, 1, N * sizeof(int));
    cudaMemcpy(best, &init, sizeof(int), cudaMemcpyHostToDevice);
    running_max<<<(N + 127) / 128, 128>>>(v, best);
    cudaDeviceSynchronize();
    return 0;
}
