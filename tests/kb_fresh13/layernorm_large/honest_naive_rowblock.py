# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor ln_forward_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Naive first attempt: one 256-thread block per normalised row, scalar loads, shared-memory tree
// reductions, three passes over the row (sum -> mean, squared deviations -> variance, normalise).

#define NAIVE_THREADS 256

__global__ void ln_naive_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                const float* __restrict__ b, float* __restrict__ y,
                                long long D, float eps) {
    __shared__ float sh[NAIVE_THREADS];
    __shared__ float s_mean;
    __shared__ float s_rstd;
    const int tid = threadIdx.x;
    const float* xr = x + (long long)blockIdx.x * D;
    float* yr = y + (long long)blockIdx.x * D;

    // pass 1: mean
    float s = 0.f;
    for (long long i = tid; i < D; i += NAIVE_THREADS) s += xr[i];
    sh[tid] = s;
    __syncthreads();
    for (int st = NAIVE_THREADS / 2; st > 0; st >>= 1) {
        if (tid < st) sh[tid] += sh[tid + st];
        __syncthreads();
    }
    if (tid == 0) s_mean = sh[0] / (float)D;
    __syncthreads();
    const float mean = s_mean;

    // pass 2: variance (biased, like nn.LayerNorm)
    float v = 0.f;
    for (long long i = tid; i < D; i += NAIVE_THREADS) {
        float d = xr[i] - mean;
        v += d * d;
    }
    sh[tid] = v;
    __syncthreads();
    for (int st = NAIVE_THREADS / 2; st > 0; st >>= 1) {
        if (tid < st) sh[tid] += sh[tid + st];
        __syncthreads();
    }
    if (tid == 0) s_rstd = rsqrtf(sh[0] / (float)D + eps);
    __syncthreads();
    const float rstd = s_rstd;

    // pass 3: normalise + affine
    for (long long i = tid; i < D; i += NAIVE_THREADS) {
        yr[i] = (xr[i] - mean) * rstd * w[i] + b[i];
    }
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
    ln_naive_kernel<<<(unsigned)rows, NAIVE_THREADS>>>(xc.data_ptr<float>(), wc.data_ptr<float>(),
                                                        bc.data_ptr<float>(), out.data_ptr<float>(),
                                                        D, (float)eps);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_layernorm_large_naive_rowblock",
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
