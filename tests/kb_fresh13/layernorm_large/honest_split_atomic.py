# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor ln_forward_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Rows are long and few, so each row is split across many blocks: kernel 1 (grid = chunks x rows)
// accumulates per-thread sum / sum of squares, reduces them in shared memory and adds the block
// result into per-row double accumulators with atomicAdd; kernel 2 is a plain one-thread-per-element
// normalise + affine pass that derives mean / rstd from the accumulated sums.

#define SA_THREADS 256

__global__ void ln_stats_atomic_kernel(const float* __restrict__ x, double* __restrict__ stats, long long D) {
    __shared__ float s_sum[SA_THREADS];
    __shared__ float s_sq[SA_THREADS];
    const int tid = threadIdx.x;
    const long long row = blockIdx.y;
    const float* xr = x + row * D;
    float s = 0.f, q = 0.f;
    const long long stride = (long long)gridDim.x * SA_THREADS;
    for (long long i = (long long)blockIdx.x * SA_THREADS + tid; i < D; i += stride) {
        float v = xr[i];
        s += v;
        q += v * v;
    }
    s_sum[tid] = s;
    s_sq[tid] = q;
    __syncthreads();
    for (int st = SA_THREADS / 2; st > 0; st >>= 1) {
        if (tid < st) {
            s_sum[tid] += s_sum[tid + st];
            s_sq[tid] += s_sq[tid + st];
        }
        __syncthreads();
    }
    if (tid == 0) {
        atomicAdd(&stats[2 * row], (double)s_sum[0]);
        atomicAdd(&stats[2 * row + 1], (double)s_sq[0]);
    }
}

__global__ void ln_apply_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                const float* __restrict__ b, const double* __restrict__ stats,
                                float* __restrict__ y, long long D, long long total, double invD, float eps) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    long long row = idx / D;
    long long col = idx - row * D;
    double mean_d = stats[2 * row] * invD;
    double var_d = stats[2 * row + 1] * invD - mean_d * mean_d;
    float mean = (float)mean_d;
    float rstd = rsqrtf(fmaxf((float)var_d, 0.f) + eps);
    y[idx] = (x[idx] - mean) * rstd * w[col] + b[col];
}

torch::Tensor ln_forward_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto bc = bias.contiguous();
    const long long D = wc.numel();
    TORCH_CHECK(D > 0 && xc.numel() % D == 0, "shape mismatch");
    const long long rows = xc.numel() / D;
    auto out = torch::empty_like(xc);
    if (rows == 0) return out;
    TORCH_CHECK(rows <= 65535, "too many rows for this kernel");
    auto stats = torch::zeros({rows, 2}, xc.options().dtype(torch::kFloat64));

    // each thread of the stats kernel handles ~32 elements
    long long chunks = (D + (long long)SA_THREADS * 32 - 1) / ((long long)SA_THREADS * 32);
    if (chunks < 1) chunks = 1;
    if (chunks > 4096) chunks = 4096;
    dim3 g1((unsigned)chunks, (unsigned)rows);
    ln_stats_atomic_kernel<<<g1, SA_THREADS>>>(xc.data_ptr<float>(), stats.data_ptr<double>(), D);

    const long long total = rows * D;
    const int threads = 256;
    const long long blocks = (total + threads - 1) / threads;
    ln_apply_kernel<<<(unsigned)blocks, threads>>>(xc.data_ptr<float>(), wc.data_ptr<float>(),
                                                   bc.data_ptr<float>(), stats.data_ptr<double>(),
                                                   out.data_ptr<float>(), D, total, 1.0 / (double)D,
                                                   (float)eps);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_layernorm_large_split_atomic",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["ln_forward_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.ln_forward_cuda(x, self.ln.weight, self.ln.bias, self.ln.eps)
