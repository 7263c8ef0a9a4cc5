#pragma once
// Saved by an editor that writes a UTF-8 byte order mark.
#include <cuda_runtime.h>

template <typename T>
__global__ void bom_scale(T *p, T s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= s;
}

template <typename T>
__global__ void bom_offset(T *p, T o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += o;
}

template <typename T> __global__ void bom_square(T *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= p[i]; }

template <typename T, typename U>
__global__ void bom_copy(const T *src, U *dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = static_cast<U>(src[i]);
}
