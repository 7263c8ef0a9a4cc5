/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// House style of a project that hides CUDA qualifiers behind macros.

#include <cuda_runtime.h>
#include <cstdint>

#define KERNEL __global__ void
#define GLOBAL __global__
#define DEVICE __device__ __forceinline__
#define HOST_DEVICE __host__ __device__ inline
#define KERNEL_LB(n) __global__ void __launch_bounds__(n)
#define EXPORT_KERNEL extern "C" __global__ void
#define RESTRICT __restrict__
#define LAUNCH_BOUNDS(t, b) __launch_bounds__(t, b)
#define STATIC_KERNEL static __global__ void
#define KFN(name) __global__ void name

DEVICE float sq(float x) { return x * x; }
HOST_DEVICE int ceil_div(int a, int b) { return (a + b - 1) / b; }

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

KERNEL
qm_where_kernel(const bool* cond, const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out, int n)
{
    for (int tid = blockIdx.x * blockDim.x + threadIdx.x; tid < n; tid += blockDim.x * gridDim.x) {
        out[tid] = cond[tid] ? a[tid] : b[tid];
    }
}

GLOBAL void qm_where_kernel_1(
    const bool* cond,
    const float* __restrict__ a,
    const float* __restrict__ b,
    float* __restrict__ out,
    int n) {
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n; idx += blockDim.x * gridDim.x) {
        out[idx] = cond[idx] ? a[idx] : b[idx];
    }
}

KERNEL_LB(256) qm_cube_kernel(
    const float* __restrict__ input,
    float* __restrict__ output,
    int n) {
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n) return;
    const float v = input[tid];
    output[tid] = v * v * v;
}

EXPORT_KERNEL
qm_cross_entropy_kernel(const float* logits, const int64_t* target, float* loss, int rows, int cols, int64_t ignore_index)
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

STATIC_KERNEL qm_clamp_kernel(const float* __restrict__ in, float* __restrict__ out, float lo, float hi, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = in[idx];
        v = v < lo ? lo : v;
        v = v > hi ? hi : v;
        out[idx] = v;
    }
}

GLOBAL void LAUNCH_BOUNDS(128, 4) qm_upsample_nearest_kernel(
    const float* in,
    float* out,
    int in_h,
    int in_w,
    int out_h,
    int out_w,
    float scale_h,
    float scale_w,
    int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const int ox = i % out_w;
        const int oy = (i / out_w) % out_h;
        const int nc = i / (out_w * out_h);
        const int ix = min(static_cast<int>(ox * scale_w), in_w - 1);
        const int iy = min(static_cast<int>(oy * scale_h), in_h - 1);
        out[i] = in[(nc * in_h + iy) * in_w + ix];
    }
}

KERNEL qm_layer_norm_kernel(
    const float* x,
    const float* gamma,
    const float* beta,
    float* y,
    float* mean,
    float* inv_std,
    int rows,
    int cols,
    float eps) {
    const int row = blockIdx.x;
    if (row >= rows) return;
    const size_t base = static_cast<size_t>(row) * cols;
    __shared__ float scratch[32];
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        s += x[base + c];
    }
    const float mu = blk_sum(s, scratch) / cols;
    float ss = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float d = x[base + c] - mu;
        ss += d * d;
    }
    const float rstd = rsqrtf(blk_sum(ss, scratch) / cols + eps);
    if (threadIdx.x == 0) {
        mean[row] = mu;
        inv_std[row] = rstd;
    }
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float xh = (x[base + c] - mu) * rstd;
        y[base + c] = xh * gamma[c] + beta[c];
    }
}

__global__ void LAUNCH_BOUNDS(256, 2)
qm_relu6_kernel(const float* input, float* output, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        const float v = input[idx];
        output[idx] = fminf(fmaxf(v, 0.f), 6.f);
    }
}

KFN(qm_maximum_alpha_kernel)(const float* self, const float* other, float* out, float alpha, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float x = self[i];
    const float y = other[i] * alpha;
    out[i] = fmaxf(x, y);
}

template <int BLOCK>
GLOBAL void qm_reduce_mean_kernel(const float* __restrict__ in, float* partial, int n) {
    __shared__ float smem[BLOCK];
    const int tid = threadIdx.x;
    float acc = 0.f;
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
        const float v = in[i];
        acc = acc + v;
    }
    smem[tid] = acc;
    __syncthreads();
    #pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) smem[tid] = smem[tid] + smem[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = smem[0] / static_cast<float>(n);
}

KERNEL_LB(256) qm_cross_entropy_kernel_10(
    const float* __restrict__ logits,
    const int64_t* target,
    float* loss,
    int rows,
    int cols,
    int64_t ignore_index) {
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

EXPORT_KERNEL qm_dropout_kernel(
    const float* __restrict__ in,
    float* __restrict__ out,
    unsigned char* mask,
    float p,
    float scale,
    unsigned long long seed,
    int n) {
    for (int tid = blockIdx.x * blockDim.x + threadIdx.x; tid < n; tid += blockDim.x * gridDim.x) {
        unsigned int h = static_cast<unsigned int>(tid) * 2654435761u ^ static_cast<unsigned int>(seed);
        h ^= h >> 16;
        h *= 0x7feb352du;
        h ^= h >> 15;
        const float u = (h & 0x00ffffffu) * (1.f / 16777216.f);
        const bool keep = u >= p;
        mask[tid] = keep;
        out[tid] = keep ? in[tid] * scale : 0.f;
    }
}

STATIC_KERNEL
qm_add_alpha_kernel(const float* self, const float* other, float* out, float alpha, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        const float x = self[idx];
        const float y = other[idx] * alpha;
        out[idx] = x + y;
    }
}

GLOBAL void LAUNCH_BOUNDS(128, 4)
qm_cumsum_rows_kernel(const float* in, float* out, int rows, int cols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float acc = 0.f;
    for (int c = 0; c < cols; ++c) {
        acc += in[r * cols + c];
        out[r * cols + c] = acc;
    }
}

KERNEL qm_erf_kernel(
    const float* input,
    float* output,
    int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float v = input[i];
    output[i] = erff(v);
}

__global__ void LAUNCH_BOUNDS(256, 2)
qm_div_alpha_kernel(const float* __restrict__ self, const float* __restrict__ other, float* __restrict__ out, float alpha, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        const float x = self[tid];
        const float y = other[tid] * alpha;
        out[tid] = x / y;
    }
}

KERNEL
qm_axpby_kernel(const float* x, const float* y, float* out, float alpha, float beta, int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n) return;
    out[tid] = alpha * x[tid] + beta * y[tid];
}

template <int BLOCK>
KFN(qm_block_scan_kernel)(const float* in, float* out, float* block_sums, int n) {
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

KERNEL_LB(256)
qm_embedding_kernel(const int64_t* indices, const float* __restrict__ weight, float* __restrict__ out, int64_t dim, int64_t padding_idx, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const int64_t row = indices[i / dim];
        const int64_t col = i % dim;
        out[i] = (row == padding_idx) ? 0.f : weight[row * dim + col];
    }
}

EXPORT_KERNEL
qm_where_kernel_19(const bool* cond, const float* a, const float* b, float* out, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        out[idx] = cond[idx] ? a[idx] : b[idx];
    }
}

STATIC_KERNEL qm_transpose_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) {
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    }
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) {
        if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

GLOBAL void LAUNCH_BOUNDS(128, 4)
qm_avg_pool2d_kernel(const float* __restrict__ bottom, float* __restrict__ top, int height, int width, int pooled_h, int pooled_w, int kernel, int stride, int pad, int n)
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

KERNEL qm_avg_pool2d_kernel_22(
    const float* bottom,
    float* top,
    int height,
    int width,
    int pooled_h,
    int pooled_w,
    int kernel,
    int stride,
    int pad,
    int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const int pw = i % pooled_w;
        const int ph = (i / pooled_w) % pooled_h;
        const int bc = i / pooled_w / pooled_h;
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
        top[i] = acc / pool_size;
    }
}

__global__ void LAUNCH_BOUNDS(256, 2)
qm_where_kernel_23(const bool* cond, const float* a, const float* b, float* out, int n)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    out[idx] = cond[idx] ? a[idx] : b[idx];
}

KERNEL qm_mul_alpha_kernel(const float* self, const float* other, float* out, float alpha, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float x = self[i];
    const float y = other[i] * alpha;
    out[i] = x * y;
}

GLOBAL void qm_softshrink_kernel(
    const float* input,
    float* output,
    int n) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        const float v = input[tid];
        output[tid] = v > 0.5f ? v - 0.5f : (v < -0.5f ? v + 0.5f : 0.f);
    }
}

void launch_some(float *d, int n)
{
    (void)d;
    (void)n;
}
