#include <cuda_runtime.h>
#include <cstdio>

#define BLOCK 256
#define NBLOCKS 64

__global__ void block_scan(const int* in, int* out)
{
    __shared__ int s[BLOCK];
    int tid = threadIdx.x;
    int gid = blockIdx.x * BLOCK + tid;
    s[tid] = in[gid];
    __syncthreads();
    for (int off = 1; off < BLOCK; off <<= 1) {
        int v = 0;
        if (tid >= off)
            v = s[tid - off];
        if (tid >= off)
            s[tid] += v;
        __syncthreads();
    }
    out[gid] = s[tid];
}

int main()
{
    int *d_in, *d_out;
    cudaMalloc(&d_in, BLOCK * NBLOCKS * sizeof(int));
    cudaMalloc(&d_out, BLOCK * NBLOCKS * sizeof(int));
    cudaMemset(d_in, 0, BLOCK * NBLOCKS * sizeof(int));
    block_scan<<<NBLOCKS, BLOCK>>>(d_in, d_out);
    cudaError_t err = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(err));
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
