# expect: pass (runtime: wrong result, forgets the scale)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
__global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.5f * x[i] * (1.f + erff(x[i] * 0.70710678f));
}
torch::Tensor gelu_scale(torch::Tensor x, double s) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    gelu_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(),
                                                                              y.data_ptr<float>(), n);
    return y;
}
"""
ext = load_inline(name="gelu_noscale", cpp_sources="torch::Tensor gelu_scale(torch::Tensor x, double s);",
                  cuda_sources=src, functions=["gelu_scale"])


class ModelNew(nn.Module):
    def __init__(self, scale_factor):
        super().__init__()
        self.scale_factor = scale_factor

    def forward(self, x):
        return ext.gelu_scale(x, self.scale_factor)
