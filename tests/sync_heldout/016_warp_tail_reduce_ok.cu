#include <cuda_runtime.h>
#define THREADS 256
#define BLOCKS 128

__global__ void reduce_ws(const int* in, int* out)
{
    __shared__ int s[THREADS];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * THREADS + tid];
    __syncthreads();
    for (unsigned st = THREADS / 2; st > 32; st >>= 1) {
        if (tid < st)
            s[tid] += s[tid + st];
        __syncthreads();
    }
    if (tid < 32) {
        for (int off = 32; off > 0; off >>= 1) {
            int v = s[tid + off];
            __syncwarp();
            s[tid] += v;
            __syncwarp();
        }
        if (tid == 0)
            out[blockIdx.x] = s[0];
    }
}

int main()
{
    int *in, *out;
    cudaMalloc(&in, THREADS * BLOCKS * sizeof(int));
    cudaMalloc(&out, BLOCKS * sizeof(int));
    cudaMemset(in, 0, THREADS * BLOCKS * sizeof(int));
    reduce_ws<<<BLOCKS, THREADS>>>(in, out);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}
