/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// Every kernel is declared up front, used by the host code in the middle of the
// file, and defined at the end.  Only the definitions count.

#include <cstdio>
#include <cuda_runtime.h>

__global__ void fwd_upsample_bilinear_kernel(const float* __restrict__, float* __restrict__, int, int, int, int, float, float, int);
template <int BLOCK>
__global__ void fwd_reduce_max_kernel(const float*, float*, int);
__global__ void fwd_histogram256_kernel(const unsigned char*, unsigned int*, int);
__global__ void fwd_sgd_momentum_kernel(float* param, const float* grad, float* buf, float lr, float momentum, float dampening, float weight_decay, bool nesterov, int n);
__global__ void fwd_batch_norm_infer_kernel(const float*, float*, const float*, const float*, const float*, const float*, int, int, float, int);
__global__ void fwd_embedding_kernel(const int64_t*, const float* __restrict__, float* __restrict__, int64_t, int64_t, int);
__global__ void fwd_erf_backward_kernel(const float*, const float*, float*, int);
__global__ void fwd_adam_step_kernel(float* __restrict__ param, const float* __restrict__ grad, float* exp_avg, float* exp_avg_sq, float lr, float beta1, float beta2, float eps, float weight_decay, int step, int n);
template <int TILE>
__global__ void fwd_matmul_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, float alpha, float beta);
__global__ void fwd_adam_step_kernel_9(float* __restrict__, const float* __restrict__, float*, float*, float, float, float, float, float, int, int);
template <typename T>
__global__ void fwd_generic_fill(T *out, T value, int n);

static void run_all(int n)
{
    float *d_a = nullptr;
    long bufsize = n;
    {
        float* d_in = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_in), sizeof(float) * bufsize);
        float* d_out = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_out), sizeof(float) * bufsize);
        const int in_h = 16;
        const int in_w = 16;
        const int out_h = 32;
        const int out_w = 32;
        const float scale_h = 0.5f;
        const float scale_w = 0.5f;
        const int n = static_cast<int>(n);
        fwd_upsample_bilinear_kernel<<<(n + 255) / 256, 256>>>(d_in, d_out, in_h, in_w, out_h, out_w, scale_h, scale_w, n);
        cudaFree(d_in);
        cudaFree(d_out);
    }
    {
        float* d_in = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_in), sizeof(float) * bufsize);
        float* d_partial = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_partial), sizeof(float) * bufsize);
        const int n = static_cast<int>(n);
        fwd_reduce_max_kernel<256><<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256>>>(d_in, d_partial, n);
        cudaFree(d_in);
        cudaFree(d_partial);
    }
    {
        unsigned char* d_data = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_data), sizeof(unsigned char) * bufsize);
        unsigned int* d_bins = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_bins), sizeof(unsigned int) * bufsize);
        const int n = static_cast<int>(n);
        fwd_histogram256_kernel<<<120, 256>>>(d_data, d_bins, n);
        cudaFree(d_data);
        cudaFree(d_bins);
    }
    {
        float* d_param = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_param), sizeof(float) * bufsize);
        float* d_grad = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_grad), sizeof(float) * bufsize);
        float* d_buf = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_buf), sizeof(float) * bufsize);
        const float lr = 0.1f;
        const float momentum = 0.9f;
        const float dampening = 0.f;
        const float weight_decay = 1e-4f;
        const bool nesterov = false;
        const int n = static_cast<int>(n);
        fwd_sgd_momentum_kernel<<<(n + 255) / 256, 256>>>(d_param, d_grad, d_buf, lr, momentum, dampening, weight_decay, nesterov, n);
        cudaFree(d_param);
        cudaFree(d_grad);
        cudaFree(d_buf);
    }
    {
        float* d_x = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_x), sizeof(float) * bufsize);
        float* d_y = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_y), sizeof(float) * bufsize);
        float* d_running_mean = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_running_mean), sizeof(float) * bufsize);
        float* d_running_var = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_running_var), sizeof(float) * bufsize);
        float* d_weight = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_weight), sizeof(float) * bufsize);
        float* d_bias = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_bias), sizeof(float) * bufsize);
        const int channels = 64;
        const int hw = 196;
        const float eps = 1e-5f;
        const int n = static_cast<int>(n);
        fwd_batch_norm_infer_kernel<<<(n + 255) / 256, 256>>>(d_x, d_y, d_running_mean, d_running_var, d_weight, d_bias, channels, hw, eps, n);
        cudaFree(d_x);
        cudaFree(d_y);
        cudaFree(d_running_mean);
        cudaFree(d_running_var);
        cudaFree(d_weight);
        cudaFree(d_bias);
    }
    {
        int64_t* d_indices = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_indices), sizeof(int64_t) * bufsize);
        float* d_weight = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_weight), sizeof(float) * bufsize);
        float* d_out = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_out), sizeof(float) * bufsize);
        const int64_t dim = 64;
        const int64_t padding_idx = -1;
        const int n = static_cast<int>(n);
        fwd_embedding_kernel<<<(n + 255) / 256, 256>>>(d_indices, d_weight, d_out, dim, padding_idx, n);
        cudaFree(d_indices);
        cudaFree(d_weight);
        cudaFree(d_out);
    }
    {
        float* d_grad_output = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_grad_output), sizeof(float) * bufsize);
        float* d_self = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_self), sizeof(float) * bufsize);
        float* d_grad_input = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_grad_input), sizeof(float) * bufsize);
        const int n = static_cast<int>(n);
        fwd_erf_backward_kernel<<<(n + 255) / 256, 256>>>(d_grad_output, d_self, d_grad_input, n);
        cudaFree(d_grad_output);
        cudaFree(d_self);
        cudaFree(d_grad_input);
    }
    {
        float* d_param = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_param), sizeof(float) * bufsize);
        float* d_grad = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_grad), sizeof(float) * bufsize);
        float* d_exp_avg = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_exp_avg), sizeof(float) * bufsize);
        float* d_exp_avg_sq = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_exp_avg_sq), sizeof(float) * bufsize);
        const float lr = 1e-3f;
        const float beta1 = 0.9f;
        const float beta2 = 0.999f;
        const float eps = 1e-8f;
        const float weight_decay = 0.f;
        const int step = 1;
        const int n = static_cast<int>(n);
        fwd_adam_step_kernel<<<(n + 255) / 256, 256>>>(d_param, d_grad, d_exp_avg, d_exp_avg_sq, lr, beta1, beta2, eps, weight_decay, step, n);
        cudaFree(d_param);
        cudaFree(d_grad);
        cudaFree(d_exp_avg);
        cudaFree(d_exp_avg_sq);
    }
    {
        float* d_A = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_A), sizeof(float) * bufsize);
        float* d_B = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_B), sizeof(float) * bufsize);
        float* d_C = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_C), sizeof(float) * bufsize);
        const int M = 128;
        const int N = 128;
        const int K = 128;
        const float alpha = 1.0f;
        const float beta = 0.0f;
        fwd_matmul_tiled_kernel<16><<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(d_A, d_B, d_C, M, N, K, alpha, beta);
        cudaFree(d_A);
        cudaFree(d_B);
        cudaFree(d_C);
    }
    {
        float* d_param = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_param), sizeof(float) * bufsize);
        float* d_grad = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_grad), sizeof(float) * bufsize);
        float* d_exp_avg = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_exp_avg), sizeof(float) * bufsize);
        float* d_exp_avg_sq = nullptr;
        cudaMalloc(reinterpret_cast<void**>(&d_exp_avg_sq), sizeof(float) * bufsize);
        const float lr = 1e-3f;
        const float beta1 = 0.9f;
        const float beta2 = 0.999f;
        const float eps = 1e-8f;
        const float weight_decay = 0.f;
        const int step = 1;
        const int n = static_cast<int>(n);
        fwd_adam_step_kernel_9<<<(n + 255) / 256, 256>>>(d_param, d_grad, d_exp_avg, d_exp_avg_sq, lr, beta1, beta2, eps, weight_decay, step, n);
        cudaFree(d_param);
        cudaFree(d_grad);
        cudaFree(d_exp_avg);
        cudaFree(d_exp_avg_sq);
    }
    cudaMalloc(&d_a, n * sizeof(float));
    fwd_generic_fill<float><<<(n + 255) / 256, 256>>>(d_a, 1.0f, n);
    cudaFree(d_a);
    (void)bufsize;
}

int main()
{
    run_all(1 << 20);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}

/* ------------------------------------------------------------------ */
/* definitions                                                        */
/* ------------------------------------------------------------------ */

__global__ void
fwd_upsample_bilinear_kernel(const float* __restrict__ in, float* __restrict__ out, int in_h, int in_w, int out_h, int out_w, float scale_h, float scale_w, int n)
{
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

template <int BLOCK>
__global__ void
fwd_reduce_max_kernel(const float* in, float* partial, int n)
{
    __shared__ float smem[BLOCK];
    const int tid = threadIdx.x;
    float acc = -3.402823466e+38f;
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
        const float v = in[i];
        acc = fmaxf(acc, v);
    }
    smem[tid] = acc;
    __syncthreads();
    #pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) smem[tid] = fmaxf(smem[tid], smem[tid + s]);
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = smem[0];
}

__global__ void
fwd_histogram256_kernel(const unsigned char* data, unsigned int* bins, int n)
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

__global__ void fwd_sgd_momentum_kernel(
    float* param,
    const float* grad,
    float* buf,
    float lr,
    float momentum,
    float dampening,
    float weight_decay,
    bool nesterov,
    int n) {
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n; idx += blockDim.x * gridDim.x) {
        float g = grad[idx] + weight_decay * param[idx];
        float b = momentum * buf[idx] + (1.f - dampening) * g;
        buf[idx] = b;
        if (nesterov) g = g + momentum * b; else g = b;
        param[idx] = param[idx] - lr * g;
    }
}

__global__ void
fwd_batch_norm_infer_kernel(const float* x, float* y, const float* running_mean, const float* running_var, const float* weight, const float* bias, int channels, int hw, float eps, int n)
{
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n; idx += blockDim.x * gridDim.x) {
        const int c = (idx / hw) % channels;
        const float inv = rsqrtf(running_var[c] + eps);
        y[idx] = (x[idx] - running_mean[c]) * inv * weight[c] + bias[c];
    }
}

__global__ void
fwd_embedding_kernel(const int64_t* indices, const float* __restrict__ weight, float* __restrict__ out, int64_t dim, int64_t padding_idx, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        const int64_t row = indices[idx / dim];
        const int64_t col = idx % dim;
        out[idx] = (row == padding_idx) ? 0.f : weight[row * dim + col];
    }
}

__global__ void
fwd_erf_backward_kernel(const float* grad_output, const float* self, float* grad_input, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float g = grad_output[i];
    const float v = self[i];
    grad_input[i] = g * 1.12837917f * expf(-v * v);
}

__global__ void fwd_adam_step_kernel(
    float* __restrict__ param,
    const float* __restrict__ grad,
    float* exp_avg,
    float* exp_avg_sq,
    float lr,
    float beta1,
    float beta2,
    float eps,
    float weight_decay,
    int step,
    int n) {
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    float g = grad[idx];
    float w = param[idx];
    if (weight_decay != 0.f) g += weight_decay * w;
    const float m = beta1 * exp_avg[idx] + (1.f - beta1) * g;
    const float v = beta2 * exp_avg_sq[idx] + (1.f - beta2) * g * g;
    exp_avg[idx] = m;
    exp_avg_sq[idx] = v;
    const float mhat = m / (1.f - powf(beta1, static_cast<float>(step)));
    const float vhat = v / (1.f - powf(beta2, static_cast<float>(step)));
    param[idx] = w - lr * mhat / (sqrtf(vhat) + eps);
}

template <int TILE>
__global__ void
fwd_matmul_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, float alpha, float beta)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int row = blockIdx.y * TILE + threadIdx.y;
    const int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        const int ac = t * TILE + threadIdx.x;
        const int br = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ac < K) ? A[row * K + ac] : 0.f;
        Bs[threadIdx.y][threadIdx.x] = (br < K && col < N) ? B[br * N + col] : 0.f;
        __syncthreads();
    #pragma unroll
        for (int k = 0; k < TILE; ++k) {
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

__global__ void
fwd_adam_step_kernel_9(float* __restrict__ param, const float* __restrict__ grad, float* exp_avg, float* exp_avg_sq, float lr, float beta1, float beta2, float eps, float weight_decay, int step, int n)
{
    for (int tid = blockIdx.x * blockDim.x + threadIdx.x; tid < n; tid += blockDim.x * gridDim.x) {
        float g = grad[tid];
        float w = param[tid];
        if (weight_decay != 0.f) g += weight_decay * w;
        const float m = beta1 * exp_avg[tid] + (1.f - beta1) * g;
        const float v = beta2 * exp_avg_sq[tid] + (1.f - beta2) * g * g;
        exp_avg[tid] = m;
        exp_avg_sq[tid] = v;
        const float mhat = m / (1.f - powf(beta1, static_cast<float>(step)));
        const float vhat = v / (1.f - powf(beta2, static_cast<float>(step)));
        param[tid] = w - lr * mhat / (sqrtf(vhat) + eps);
    }
}

template <typename T>
__global__ void fwd_generic_fill(T *out, T value, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = value;
}
