# expect: compile_error
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void k(const float* x, float* y, int n) { int i = threadIdx.x; if (i < n) y[i] = x[i]; }
torch::Tensor f(torch::Tensor x) { auto y = torch::empty_like(x); k<<<1, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel()); return y; }
"""
ext = load_inline(name="k", cpp_sources="torch::Tensor f(torch::Tensor x);", cuda_sources=src, functions=["f"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x)
        return ext.f(x)
