"""Honest: matmul and ReLU as two kernels, a template and launch bounds."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) matmul_bias(const float* x, const float* w, const float* b, float* y,
                                                     int n, int k, int m) {
    int row = blockIdx.y, col = blockIdx.x * BLOCK + threadIdx.x;
    if (row < n && col < m) {
        float acc = b[col];
        for (int i = 0; i < k; ++i) acc += x[row * k + i] * w[col * k + i];
        y[row * m + col] = acc;
    }
}

__global__ void relu_inplace(float* y, int total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total) y[i] = fmaxf(y[i], 0.f);
}

torch::Tensor linear_relu(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    int n = x.size(0), k = x.size(1), m = w.size(0);
    auto y = torch::empty({n, m}, x.options());
    matmul_bias<128><<<dim3((m + 127) / 128, n), 128>>>(x.data_ptr<float>(), w.data_ptr<float>(),
                                                        b.data_ptr<float>(), y.data_ptr<float>(), n, k, m);
    relu_inplace<<<(n * m + 255) / 256, 256>>>(y.data_ptr<float>(), n * m);
    return y;
}
"""

CPP = "torch::Tensor linear_relu(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

ext = load_inline(name="linear_relu", cpp_sources=CPP, cuda_sources=CUDA, functions=["linear_relu"])


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)  # holds the parameters only

    def forward(self, x):
        return ext.linear_relu(x.contiguous(), self.linear.weight, self.linear.bias)
