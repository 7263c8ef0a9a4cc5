// This file was cut off during an upload; the last kernel never ends.
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void k_prefix_local(const int *in, int *out, int n)
{
    __shared__ int s[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int o = 1; o < BLOCK; o <<= 1) {
        int t = threadIdx.x >= o ? s[threadIdx.x - o] : 0;
        __syncthreads();
        s[threadIdx.x] += t;
        __syncthreads();
    }
    if (i < n)
        out[i] = s[threadIdx.x];
}

__global__ void k_add_offsets(int *out, const int *offsets, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n && blockIdx.x > 0)
        out[i] += offsets[blockIdx.x - 1];
}

__global__ void k_flags(const float *x, int *flags, float t, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n)
        flags[i] = x[i] > t;
}

__global__ void k_scatter_selected(const float *x, const int *flags, const int *pos, float *out, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n && flags[i])
        out[pos[i] - 1] = x[i];
}

__global__ void k_count_tail(const int *pos, int *count, int n)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *count = n > 0 ? pos[n - 1] : 0;
}

__global__ void k_compact_inplace(float *x, const int *flags, const int *pos, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n && flags[i]) {
        float v = x[i];
        __syncthreads();
        x[pos[i] - 1] = v;
