# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_ln_src = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

template <int THREADS>
__global__ void ln_kernel(const float* __restrict__ x, const float* __restrict__ g, const float* __restrict__ bt,
                          float* __restrict__ y, const int n, const float eps) {
    __shared__ float red[THREADS];
    const int row = blockIdx.x;
    float s = 0.f;
    for (int i = threadIdx.x; i < n; i += THREADS) s += x[row * n + i];
    red[threadIdx.x] = s;
    __syncthreads();
    #pragma unroll
    for (int k = THREADS / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) red[threadIdx.x] += red[threadIdx.x + k];
        __syncthreads();
    }
    const float mean = red[0] / n;
    __syncthreads();
    float q = 0.f;
    for (int i = threadIdx.x; i < n; i += THREADS) { float d = x[row * n + i] - mean; q += d * d; }
    red[threadIdx.x] = q;
    __syncthreads();
    #pragma unroll
    for (int k = THREADS / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) red[threadIdx.x] += red[threadIdx.x + k];
        __syncthreads();
    }
    const float rstd = rsqrtf(red[0] / n + eps);
    for (int i = threadIdx.x; i < n; i += THREADS) y[row * n + i] = (x[row * n + i] - mean) * rstd * g[i] + bt[i];
}

torch::Tensor ln(torch::Tensor x, torch::Tensor g, torch::Tensor b, float eps) {
    auto y = torch::empty_like(x);
    const int n = g.numel();
    ln_kernel<512><<<x.numel() / n, 512, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), g.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(), n, eps);
    return y;
}
"""


class ModelNew(nn.Module):
    """LayerNorm; the extension is compiled on the first forward call (lazy build on self)."""

    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))
        self.eps = 1e-5
        self._ext = None

    def forward(self, x):
        if self._ext is None:
            self._ext = load_inline(
                name="ln_template_lazy",
                cpp_sources="torch::Tensor ln(torch::Tensor x, torch::Tensor g, torch::Tensor b, float eps);",
                cuda_sources=_ln_src,
                functions=["ln"],
            )
        return self._ext.ln(x.contiguous(), self.weight, self.bias, self.eps)
