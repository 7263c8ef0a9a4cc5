/*
 * Formatting collected from many code bases: qualifiers on their own lines, comments
 * between tokens, attributes in every legal position, preprocessor lines inside
 * declarations, trailing return types, and very long parameter lists.
 */

#include <cuda_runtime.h>
#include <cstdint>
#include <cuda/std/utility>

#define USE_BOUNDS 1
#define SCALAR float

static __device__ __forceinline__ float wrp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

static __device__ __forceinline__ float wrp_max(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}

// Reduces across the block; `scratch` must hold 32 floats.  All threads get the result.
static __device__ __forceinline__ float blk_sum(float v, float* scratch) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    v = wrp_sum(v);
    __syncthreads();
    if (lane == 0) scratch[wid] = v;
    __syncthreads();
    const int nwarps = (blockDim.x + 31) >> 5;
    v = (threadIdx.x < nwarps) ? scratch[lane] : 0.f;
    if (wid == 0) v = wrp_sum(v);
    if (threadIdx.x == 0) scratch[0] = v;
    __syncthreads();
    return scratch[0];
}

static __device__ __forceinline__ float blk_max(float v, float* scratch) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    v = wrp_max(v);
    __syncthreads();
    if (lane == 0) scratch[wid] = v;
    __syncthreads();
    const int nwarps = (blockDim.x + 31) >> 5;
    v = (threadIdx.x < nwarps) ? scratch[lane] : -3.402823466e+38f;
    if (wid == 0) v = wrp_max(v);
    if (threadIdx.x == 0) scratch[0] = v;
    __syncthreads();
    return scratch[0];
}



__global__
void
own_lines_a
(
    float *out,
    int n
)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 1.0f;
}

__global__ /* entry */ void /* no result */ comments_between /* (the name) */ ( float * /* dst */ p , int /* count */ n )
{
    // nothing fancy inside
    if (threadIdx.x < n) p[threadIdx.x] = 2.0f;
}

__global__ // the kernel qualifier
void      // return type
line_comments_between(  // opening paren
    float *p,                // data
    int n)                   // count
{
    if (threadIdx.x < n) p[threadIdx.x] += 1.0f;
}

__global__ void
#if USE_BOUNDS
__launch_bounds__(256)
#endif
bounds_in_ifdef(float *p)
{
    p[threadIdx.x] *= 2.0f;
}

__global__ void params_in_ifdef(float *p,
#ifdef WITH_SCALE
                               float scale,
#endif
                               int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef WITH_SCALE
    if (i < n) p[i] *= scale;
#else
    if (i < n) p[i] *= 3.0f;
#endif
}

__global__ auto trailing_return(int *p) -> void
{
    p[threadIdx.x] = threadIdx.x;
}

__global__ static void static_after_global(int *p) { p[0] = 1; }

__global__ void one_liner(int *p) { p[threadIdx.x] = 0; }

__global__ void brace_far_away(int *p)



{
    p[0] = 7;
}

__global__	void	tabs_and_spaces	(int	*p	,	int	v	)	{	p [ threadIdx . x ] = v ;	}

__launch_bounds__(128, 2) __global__ void attr_before_global(float *p) { p[threadIdx.x] = 0.5f; }

__global__ void macro_typed_params(SCALAR *__restrict__ a, const SCALAR *__restrict__ b, SCALAR c)
{
    a[threadIdx.x] = b[threadIdx.x] * c;
}

template <typename T, typename Pair = ::cuda::std::pair<T, int>>
__global__ void nested_template_params(T *out, Pair *pairs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = pairs[i].first * pairs[i].second;
}

__global__ void array_params(float out[], const float in[], int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

struct affine_coeffs { float a, b; };

__global__ void struct_by_value(struct affine_coeffs coeffs, float *p)
{
    p[threadIdx.x] = coeffs.a * p[threadIdx.x] + coeffs.b;
}

__global__ void unnamed_params(float *p, int, float)
{
    p[threadIdx.x] = 0.0f;
}

__global__ void default_args(float *p, int n = 1024, float v = 1.0f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

__global__ void \
continued_lines(float *p) \
{ p[threadIdx.x] = 4.0f; }

__global__ void unicode_comment(float *p)  // Größe, 大小, ∑ over i — non-ASCII in a comment
{
    p[threadIdx.x] = 5.0f;  /* «quoted» */
}

__global__ void very_long_params(const float *__restrict__ a0, const float *__restrict__ a1, const float *__restrict__ a2, const float *__restrict__ a3, const float *__restrict__ a4, const float *__restrict__ a5, const float *__restrict__ a6, const float *__restrict__ a7, float *__restrict__ out, const int n, const float w0, const float w1, const float w2, const float w3, const float w4, const float w5, const float w6, const float w7)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = w0 * a0[i] + w1 * a1[i] + w2 * a2[i] + w3 * a3[i] + w4 * a4[i] + w5 * a5[i] + w6 * a6[i] + w7 * a7[i];
}

__global__ void volatile_and_const(volatile int *flag, const int *const data, int *const out)
{
    while (*flag == 0) {
    }
    out[threadIdx.x] = data[threadIdx.x];
}

__global__ void body_with_braces_in_strings(int *p)
{
    const char *s = "} not the end {";
    const char c = '}';
    p[0] = s[0] + c;  // } also not the end
    /* { } */
}

__global__ void ifdef_inside_body(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(FAST_PATH)
    if (i < n) {
        p[i] = __expf(p[i]);
#else
    if (i < n) {
        p[i] = expf(p[i]);
#endif
    }
}

__global__
void
fmt_cross_entropy_kernel(
    const float* logits,
    const int64_t* target,
    float* loss,
    int rows,
    int cols,
    int64_t ignore_index)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* x = logits + static_cast<size_t>(r) * cols;
    float m = -3.402823466e+38f;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, x[c]);
    float s = 0.f;
    for (int c = 0; c < cols; ++c) s += expf(x[c] - m);
    const int64_t t = target[r];
    if (t == ignore_index) {
        loss[r] = 0.f;
        return;
    }
    loss[r] = logf(s) + m - x[t];
}

__global__ /* entry point */ void /* returns nothing */
fmt_argmax_rows_kernel /* kernel */ (
    const float* /* arg 0 */ in,
    int64_t* /* arg 1 */ out,
    int /* arg 2 */ rows,
    int /* arg 3 */ cols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float best = in[r * cols];
    int64_t arg = 0;
    for (int c = 1; c < cols; ++c) {
        const float v = in[r * cols + c];
        if (v > best) {
            best = v;
            arg = c;
        }
    }
    out[r] = arg;
}

template <int BLOCK>
__global__ void
fmt_block_scan_kernel(const float* __restrict__ in, float* __restrict__ out, float* block_sums, int n)
{
    __shared__ float buf[2][BLOCK];
    const int tid = threadIdx.x;
    const int gid = blockIdx.x * BLOCK + tid;
    buf[0][tid] = gid < n ? in[gid] : 0.f;
    __syncthreads();
    int src = 0;
    for (int off = 1; off < BLOCK; off <<= 1) {
        const int dst = 1 - src;
        buf[dst][tid] = buf[src][tid] + (tid >= off ? buf[src][tid - off] : 0.f);
        __syncthreads();
        src = dst;
    }
    if (gid < n) out[gid] = buf[src][tid];
    if (tid == BLOCK - 1) block_sums[blockIdx.x] = buf[src][tid];
}

__global__ void fmt_batch_norm_infer_kernel(
    const float* __restrict__ x,
    float* __restrict__ y,
    const float* running_mean,
    const float* running_var,
    const float* weight,
    const float* bias,
    int channels,
    int hw,
    float eps,
    int n) {
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    const int c = (idx / hw) % channels;
    const float inv = rsqrtf(running_var[c] + eps);
    y[idx] = (x[idx] - running_mean[c]) * inv * weight[c] + bias[c];
}

__global__
void
fmt_avg_pool2d_kernel(
    const float* __restrict__ bottom,
    float* __restrict__ top,
    int height,
    int width,
    int pooled_h,
    int pooled_w,
    int kernel,
    int stride,
    int pad,
    int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        const int pw = tid % pooled_w;
        const int ph = (tid / pooled_w) % pooled_h;
        const int bc = tid / pooled_w / pooled_h;
        int hstart = ph * stride - pad;
        int wstart = pw * stride - pad;
        int hend = min(hstart + kernel, height + pad);
        int wend = min(wstart + kernel, width + pad);
        const int pool_size = (hend - hstart) * (wend - wstart);
        hstart = max(hstart, 0);
        wstart = max(wstart, 0);
        hend = min(hend, height);
        wend = min(wend, width);
        float acc = 0.f;
        for (int h = hstart; h < hend; ++h)
            for (int w = wstart; w < wend; ++w)
                acc += bottom[(bc * height + h) * width + w];
        top[tid] = acc / pool_size;
    }
}

__global__ /* entry point */ void /* returns nothing */
fmt_fill_kernel /* kernel */ (
    float* __restrict__ /* arg 0 */ out,
    float /* arg 1 */ value,
    int /* arg 2 */ n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        out[idx] = value;
    }
}

__global__ void
fmt_histogram256_kernel(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0u;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        if (local[b]) atomicAdd(&bins[b], local[b]);
    }
}

__global__ void fmt_softmax_kernel(
    const float* input,
    float* output,
    int rows,
    int cols) {
    const int row = blockIdx.x;
    if (row >= rows) return;
    const float* x = input + static_cast<size_t>(row) * cols;
    float* y = output + static_cast<size_t>(row) * cols;
    __shared__ float scratch[32];
    float m = -3.402823466e+38f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        m = fmaxf(m, x[c]);
    }
    m = blk_max(m, scratch);
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        s += expf(x[c] - m);
    }
    s = blk_sum(s, scratch);
    const float inv = 1.f / s;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        y[c] = expf(x[c] - m) * inv;
    }
}

