"""Candidate (KernelBench format): the kernel and its torch wrapper built with load_inline."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>

__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = alpha * a[i] + b[i];
}

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    int threads = 256;
    int blocks = (int)((n + threads - 1) / threads);
    scale_add_kernel<<<blocks, threads>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(),
                                          (float)alpha, n);
    return out;
}
"""

cpp_source = "torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha);"

ext = load_inline(name="scale_add_ext", cpp_sources=cpp_source, cuda_sources=cuda_source, functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha)
