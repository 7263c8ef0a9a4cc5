/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// Half and bfloat16 arithmetic: scalar, vectorised (half2), and mixed-precision accumulation.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

__global__ void h2_axpy(__half2 *y, const __half2 *x, __half2 a, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2)
        y[i] = __hfma2(a, x[i], y[i]);
}

__global__ void h_relu(__half *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = __hgt(x[i], __float2half(0.0f)) ? x[i] : __float2half(0.0f);
}

__global__ void h_to_f(const __half *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __half2float(in[i]);
}

__global__ void f_to_bf16(const float *in, __nv_bfloat16 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __float2bfloat16_rn(in[i]);
}

__global__ void bf162_mul(__nv_bfloat162 *a, const __nv_bfloat162 *b, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2)
        a[i] = __hmul2(a[i], b[i]);
}

// dot product with half inputs and float accumulation
__global__ void h_dot_f32acc(const __half2 *a, const __half2 *b, float *out, int n2)
{
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += blockDim.x * gridDim.x) {
        float2 fa = __half22float2(a[i]);
        float2 fb = __half22float2(b[i]);
        acc += fa.x * fb.x + fa.y * fb.y;
    }
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, acc);
}

template <int COLS>
__global__ void h_softmax_row(const __half *in, __half *out)
{
    static_assert(COLS % 32 == 0, "row length must be a multiple of the warp size");
    const int row = blockIdx.x;
    const int lane = threadIdx.x;
    float v[COLS / 32];
    float m = -65504.0f;
#pragma unroll
    for (int k = 0; k < COLS / 32; ++k) {
        v[k] = __half2float(in[row * COLS + k * 32 + lane]);
        m = fmaxf(m, v[k]);
    }
    for (int o = 16; o > 0; o >>= 1)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < COLS / 32; ++k) {
        v[k] = __expf(v[k] - m);
        s += v[k];
    }
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, o);
#pragma unroll
    for (int k = 0; k < COLS / 32; ++k)
        out[row * COLS + k * 32 + lane] = __float2half(v[k] / s);
}

__global__ void h_atomic_add(__half *acc, const __half *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(acc + (i & 63), x[i]);
}

__global__ void bf16_layernorm_apply(__nv_bfloat16 *x, const float *mean, const float *rstd,
                                     const __nv_bfloat16 *gamma, const __nv_bfloat16 *beta, int cols)
{
    const int row = blockIdx.x;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        float v = (__bfloat162float(x[row * cols + c]) - mean[row]) * rstd[row];
        x[row * cols + c] = __float2bfloat16(v * __bfloat162float(gamma[c]) + __bfloat162float(beta[c]));
    }
}

__global__ void vec8_half_copy(const uint4 *in, uint4 *out, int n8)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n8) {
        uint4 v = in[i];
        __half2 *h = reinterpret_cast<__half2 *>(&v);
#pragma unroll
        for (int k = 0; k < 4; ++k)
            h[k] = __hadd2(h[k], h[k]);
        out[i] = v;
    }
}

template __global__ void h_softmax_row<128>(const __half *, __half *);
template __global__ void h_softmax_row<256>(const __half *, __half *);
