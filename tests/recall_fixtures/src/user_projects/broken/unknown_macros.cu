// Extracted from a larger project without its headers: project macros appear at
// file scope and around declarations, and nothing defines them here.
#include "kernel_traits.h"
#include "project/config.h"
#include <cuda_runtime.h>

DECLARE_TENSOR_ACCESSORS(float)
DECLARE_TENSOR_ACCESSORS(half)
PROJECT_NAMESPACE_OPEN

REGISTER_KERNEL_FAMILY(elementwise, 256)

KERNEL_ATTRS __global__ void ew_add(TensorView<float> a, TensorView<float> b, TensorView<float> c)
{
    const int64_t i = global_thread_index();
    if (i < a.numel()) c[i] = a[i] + b[i];
}

__global__ void LAUNCH_BOUNDS_DEFAULT ew_mul(TensorView<float> a, TensorView<float> b, TensorView<float> c)
{
    KERNEL_LOOP(i, a.numel()) {
        c[i] = a[i] * b[i];
    }
}

template <typename T, ENABLE_IF_FLOATING(T)>
__global__ void ew_scale(TensorView<T> x, T s)
{
    KERNEL_LOOP(i, x.numel()) { x[i] *= s; }
}

__global__ void ew_cast(CONST_PTR(float) in, PTR(half) out, INDEX_T n)
{
    KERNEL_LOOP(i, n) out[i] = TO_HALF(in[i]);
}

HOST_DEVICE_ATTRS __global__ NO_INLINE void ew_fill(float *p, float v, int n) UNUSED_ATTR
{
    KERNEL_LOOP(i, n) p[i] = v;
}

DEFINE_KERNEL_TRAITS(ew_add, 4, true)
DEFINE_KERNEL_TRAITS(ew_mul, 4, true)

__global__ void reduce_rows(const float *in, float *out, int rows, int cols)
{
    SHARED_BUFFER(float, smem, 256);
    float acc = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += in[blockIdx.x * cols + c];
    acc = BLOCK_REDUCE_SUM(acc, smem);
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

C10_LAUNCH_BOUNDS_1(MAX_THREADS)
__global__ void softmax_rows(const float *in, float *out, int cols)
{
    ROW_SOFTMAX_IMPL(in, out, cols);
}

__global__ void gather_rows_k(const float *src, const int64_t *idx, float *dst, int cols)
{
    const int64_t r = idx[blockIdx.x];
    for (int c = threadIdx.x; c < cols; c += blockDim.x) dst[blockIdx.x * cols + c] = src[r * cols + c];
}

EXPORT_KERNEL_SYMBOLS(ew_add, ew_mul, ew_scale, ew_cast, ew_fill)

__global__ void last_one(float *p)
{
    p[threadIdx.x] = 0.f;
}

PROJECT_NAMESPACE_CLOSE
