# expect: pass (runtime: an extra parameter eps defaulting to 1e-3 where the reference uses 1e-5; the harness passes only normalized_shape, so the result is wrong)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void ln_kernel(const float* x, const float* w, const float* b, float* y, int n, float eps) {
    const float* xr = x + blockIdx.x * n;
    float* yr = y + blockIdx.x * n;
    float mean = 0.f, var = 0.f;
    for (int i = 0; i < n; ++i) mean += xr[i];
    mean /= n;
    for (int i = 0; i < n; ++i) var += (xr[i] - mean) * (xr[i] - mean);
    float rstd = rsqrtf(var / n + eps);
    for (int i = threadIdx.x; i < n; i += blockDim.x) yr[i] = (xr[i] - mean) * rstd * w[i] + b[i];
}
torch::Tensor ln(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
    auto y = torch::empty_like(x);
    int n = w.numel();
    ln_kernel<<<x.numel() / n, 256>>>(x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(),
                                      y.data_ptr<float>(), n, (float)eps);
    return y;
}
"""
ext = load_inline(name="ln_sig", cpp_sources="torch::Tensor ln(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps);", cuda_sources=src, functions=["ln"])


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple, eps: float = 1e-3):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))
        self.eps = eps

    def forward(self, x):
        return ext.ln(x, self.weight, self.bias, self.eps)
