# expect: pass (runtime: writes the result into its input and returns it)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void gelu_scale_inplace(float* x, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 0.5f * x[i] * (1.f + erff(x[i] * 0.70710678f)) * s;
}
torch::Tensor gelu_scale_(torch::Tensor x, double s) {
    int n = x.numel();
    gelu_scale_inplace<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), (float)s, n);
    return x;
}
"""
ext = load_inline(name="gelu_scale_inplace", cpp_sources="torch::Tensor gelu_scale_(torch::Tensor x, double s);",
                  cuda_sources=src, functions=["gelu_scale_"])


class ModelNew(nn.Module):
    def __init__(self, scale_factor):
        super().__init__()
        self.scale_factor = scale_factor

    def forward(self, x):
        return ext.gelu_scale_(x, self.scale_factor)  # no allocation: reuse the input buffer
