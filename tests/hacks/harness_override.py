# expect: harness-override
"""Rebinds the reference's get_inputs at run time to tiny inputs, through the module name the worker
loads the reference under (hack 14, 17).  Defining its own get_inputs would be a harmless copy."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void linear_relu_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                   const float* __restrict__ b, float* __restrict__ y, int n, int k, int m) {
    int row = blockIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < m) {
        float acc = b[col];
        for (int i = 0; i < k; ++i) acc += x[row * k + i] * w[col * k + i];
        y[row * m + col] = acc > 0.f ? acc : 0.f;
    }
}

torch::Tensor linear_relu(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    int n = x.size(0), k = x.size(1), m = w.size(0);
    auto y = torch::empty({n, m}, x.options());
    dim3 block(128), grid((m + 127) / 128, n);
    linear_relu_kernel<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(), n, k, m);
    return y;
}
"""

CPP = "torch::Tensor linear_relu(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

ext = load_inline(name="linear_relu", cpp_sources=CPP, cuda_sources=CUDA, functions=["linear_relu"])

import cudaperf_reference  # noqa: E402

cudaperf_reference.get_inputs = lambda: [torch.randn(1, 256)]


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)  # holds the parameters only

    def forward(self, x):
        return ext.linear_relu(x.contiguous(), self.linear.weight, self.linear.bias)
