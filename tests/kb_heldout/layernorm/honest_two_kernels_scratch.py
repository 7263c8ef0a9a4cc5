# expect: pass
"""Two kernels: row statistics into a scratch tensor, then the normalisation (no state kept across calls)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void row_stats(const float* __restrict__ x, float2* __restrict__ stats, int n, float eps) {
    __shared__ float s1[256], s2[256];
    const float* xr = x + (size_t)blockIdx.x * n;
    float a = 0.f, q = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) { float v = xr[i]; a += v; q += v * v; }
    s1[threadIdx.x] = a; s2[threadIdx.x] = q;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) { s1[threadIdx.x] += s1[threadIdx.x + s]; s2[threadIdx.x] += s2[threadIdx.x + s]; }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        float mean = s1[0] / n;
        float var = fmaxf(s2[0] / n - mean * mean, 0.f);
        stats[blockIdx.x] = make_float2(mean, rsqrtf(var + eps));
    }
}

__global__ void normalize(const float* __restrict__ x, const float2* __restrict__ stats, const float* __restrict__ w,
                          const float* __restrict__ b, float* __restrict__ y, int n, long total) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total) {
        int r = i / n, c = i % n;
        float2 st = stats[r];
        y[i] = (x[i] - st.x) * st.y * w[c] + b[c];
    }
}

torch::Tensor layer_norm_fused(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
    const int n = w.numel();
    const int rows = x.numel() / n;
    auto stats = torch::empty({rows, 2}, x.options());
    auto y = torch::empty_like(x);
    auto stream = at::cuda::getCurrentCUDAStream();
    row_stats<<<rows, 256, 0, stream>>>(x.data_ptr<float>(), reinterpret_cast<float2*>(stats.data_ptr<float>()), n,
                                        (float)eps);
    const long total = x.numel();
    normalize<<<(total + 255) / 256, 256, 0, stream>>>(x.data_ptr<float>(),
        reinterpret_cast<const float2*>(stats.data_ptr<float>()), w.data_ptr<float>(), b.data_ptr<float>(),
        y.data_ptr<float>(), n, total);
    return y;
}
"""

ext = load_inline(
    name="layer_norm_two_pass",
    cpp_sources="torch::Tensor layer_norm_fused(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps);",
    cuda_sources=CUDA,
    functions=["layer_norm_fused"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.normalized_shape = normalized_shape
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))
        self.eps = 1e-5

    def forward(self, x):
        n = self.weight.numel()
        y = ext.layer_norm_fused(x.contiguous().view(-1, n), self.weight, self.bias, self.eps)
        return y.view_as(x)
