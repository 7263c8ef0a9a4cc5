// Namespaces and linkage blocks opened and closed by macros.

#include <cuda_runtime.h>
#include <cstdint>

#define TK_NAMESPACE_BEGIN namespace tk { namespace cuda {
#define TK_NAMESPACE_END } }
#define TK_ANON_BEGIN namespace {
#define TK_ANON_END }
#define TK_EXTERN_C_BEGIN extern "C" {
#define TK_EXTERN_C_END }

TK_NAMESPACE_BEGIN

__global__ void nsm_cross_entropy_kernel(
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

__global__ void nsm_cross_entropy_kernel_1(
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

__global__ void nsm_axpby_kernel(
    const float* __restrict__ x,
    const float* __restrict__ y,
    float* __restrict__ out,
    float alpha,
    float beta,
    int n) {
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n; idx += blockDim.x * gridDim.x) {
        out[idx] = alpha * x[idx] + beta * y[idx];
    }
}

TK_ANON_BEGIN

__global__ void nsm_upsample_bilinear_kernel(
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
        const float fy = fmaxf((oy + 0.5f) * scale_h - 0.5f, 0.f);
        const float fx = fmaxf((ox + 0.5f) * scale_w - 0.5f, 0.f);
        const int y0 = min(static_cast<int>(fy), in_h - 1);
        const int x0 = min(static_cast<int>(fx), in_w - 1);
        const int y1 = min(y0 + 1, in_h - 1);
        const int x1 = min(x0 + 1, in_w - 1);
        const float ly = fy - y0, lx = fx - x0;
        const float* base = in + static_cast<size_t>(nc) * in_h * in_w;
        const float v = (1.f - ly) * ((1.f - lx) * base[y0 * in_w + x0] + lx * base[y0 * in_w + x1])
                      + ly * ((1.f - lx) * base[y1 * in_w + x0] + lx * base[y1 * in_w + x1]);
        out[i] = v;
    }
}

__global__ void nsm_round_kernel(const float* input, float* output, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        const float v = input[idx];
        output[idx] = rintf(v);
    }
}

TK_ANON_END

TK_NAMESPACE_END

TK_EXTERN_C_BEGIN

__global__ void nsm_fill_kernel(float* __restrict__ out, float value, int n) {
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    out[idx] = value;
}

__global__ void nsm_acos_kernel(const float* __restrict__ input, float* __restrict__ output, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = input[i];
        output[i] = acosf(v);
    }
}

__global__ void nsm_spmv_csr_kernel(
    const int* row_ptr,
    const int* col_idx,
    const float* values,
    const float* x,
    float* y,
    int num_rows) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= num_rows) return;
    float dot = 0.f;
    for (int j = row_ptr[row]; j < row_ptr[row + 1]; ++j) {
        dot += values[j] * x[col_idx[j]];
    }
    y[row] = dot;
}

TK_EXTERN_C_END
