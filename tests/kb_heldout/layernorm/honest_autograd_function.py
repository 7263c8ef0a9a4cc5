# expect: pass
"""LayerNorm wrapped in an autograd.Function (forward only is timed); parameters named as in nn.LayerNorm."""
from typing import Tuple

import torch
from torch import nn
import torch.nn.functional as F  # noqa: F401  (unused: everything runs in the kernel)
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void ln_rows(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
                        float* __restrict__ y, float* __restrict__ mean_out, float* __restrict__ rstd_out,
                        int n, float eps) {
    extern __shared__ float sdata[];
    const float* xr = x + (size_t)blockIdx.x * n;
    float acc = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) acc += xr[i];
    sdata[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x >> 1; s > 0; s >>= 1) {
        if (threadIdx.x < s) sdata[threadIdx.x] += sdata[threadIdx.x + s];
        __syncthreads();
    }
    float mean = sdata[0] / n;
    __syncthreads();
    acc = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) { float d = xr[i] - mean; acc += d * d; }
    sdata[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x >> 1; s > 0; s >>= 1) {
        if (threadIdx.x < s) sdata[threadIdx.x] += sdata[threadIdx.x + s];
        __syncthreads();
    }
    float rstd = rsqrtf(sdata[0] / n + eps);
    if (threadIdx.x == 0) { mean_out[blockIdx.x] = mean; rstd_out[blockIdx.x] = rstd; }
    for (int i = threadIdx.x; i < n; i += blockDim.x) y[(size_t)blockIdx.x * n + i] = (xr[i] - mean) * rstd * w[i] + b[i];
}

std::vector<torch::Tensor> ln_fwd(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
    const int n = w.numel(), rows = x.numel() / n;
    auto y = torch::empty_like(x);
    auto mean = torch::empty({rows}, x.options());
    auto rstd = torch::empty({rows}, x.options());
    const int threads = 256;
    ln_rows<<<rows, threads, threads * sizeof(float), at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(),
        mean.data_ptr<float>(), rstd.data_ptr<float>(), n, (float)eps);
    return {y, mean, rstd};
}
"""

_C = load_inline(
    name="ln_autograd",
    cpp_sources="std::vector<torch::Tensor> ln_fwd(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps);",
    cuda_sources=src,
    functions=["ln_fwd"],
)


class _LayerNormFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias, eps):
        y, mean, rstd = _C.ln_fwd(x.contiguous(), weight, bias, eps)
        ctx.save_for_backward(x, weight, mean, rstd)
        ctx.eps = eps
        return y

    @staticmethod
    def backward(ctx, grad_out):
        raise NotImplementedError("inference only")


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.normalized_shape: Tuple[int, ...] = tuple(normalized_shape)
        self.weight = nn.Parameter(torch.ones(self.normalized_shape))
        self.bias = nn.Parameter(torch.zeros(self.normalized_shape))
        self.eps = 1e-5

    def forward(self, x):
        return _LayerNormFn.apply(x, self.weight, self.bias, self.eps)
