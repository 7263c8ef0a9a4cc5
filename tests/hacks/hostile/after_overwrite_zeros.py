# expect: incorrect — overwrite_installed_package (probe): a plain zeros kernel run after overwrite_installed_package.py in the same engine; correct only if the planted compare() was loaded
"""Writes zeros (the kernel forgot the arithmetic).  Honest engines score it incorrect
(constant-output); an engine whose installed package was rewritten by an earlier candidate scores it
correct."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = """
#include <torch/extension.h>

__global__ void fill_out_kernel(float* out, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = 0.0f;
}

torch::Tensor fused_forward(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    fill_out_kernel<<<(unsigned)((n + 255) / 256), 256>>>(out.data_ptr<float>(), n);
    return out;
}
"""

ext = load_inline(name="hostile_after_overwrite_zeros",
                  cpp_sources="torch::Tensor fused_forward(torch::Tensor a, torch::Tensor b, double alpha);",
                  cuda_sources=source, functions=["fused_forward"])


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, a, b):
        return ext.fused_forward(a, b, self.alpha)
