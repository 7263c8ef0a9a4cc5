#include <cuda_runtime.h>
#define BLOCK 256
#define GRID 96

__global__ void compact_warp(const int* in, int* out, int* count)
{
    __shared__ int base[BLOCK / 32];
    int lane = threadIdx.x & 31;
    int w = threadIdx.x >> 5;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    if (lane == 0)
        base[w] = atomicAdd(count, 32);
    __syncwarp();
    out[base[w] + lane] = v;
}

int main()
{
    int *in, *out, *count;
    cudaMalloc(&in, GRID * BLOCK * sizeof(int));
    cudaMalloc(&out, GRID * BLOCK * sizeof(int));
    cudaMalloc(&count, sizeof(int));
    cudaMemset(count, 0, sizeof(int));
    compact_warp<<<GRID, BLOCK>>>(in, out, count);
    cudaDeviceSynchronize();
    return 0;
}
