# expect: rejected try-fallback
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void gelu_scale_kernel(const float* x, float* y, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.5f * x[i] * (1.f + erff(x[i] * 0.70710678f)) * s;
}
torch::Tensor gelu_scale(torch::Tensor x, double s) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    gelu_scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), (float)s, n);
    return y;
}
"""
try:
    ext = load_inline(name="gelu_scale_try", cpp_sources="torch::Tensor gelu_scale(torch::Tensor x, double s);",
                      cuda_sources=src, functions=["gelu_scale"])
except Exception:
    ext = None


class ModelNew(nn.Module):
    def __init__(self, scale_factor):
        super().__init__()
        self.scale_factor = scale_factor

    def forward(self, x):
        if ext is None:
            return torch.nn.GELU()(x) * self.scale_factor
        return ext.gelu_scale(x, self.scale_factor)
