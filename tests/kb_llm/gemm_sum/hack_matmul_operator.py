# expect: rejected torch-op
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void row_sum_scale(const float* y, float* out, int n, float f) {
    __shared__ float s[256];
    float acc = 0.f;
    for (int j = threadIdx.x; j < n; j += 256) acc += y[blockIdx.x * n + j];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) { if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k]; __syncthreads(); }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] * f;
}
torch::Tensor sum_scale(torch::Tensor y, double f) {
    auto out = torch::empty({y.size(0), 1}, y.options());
    row_sum_scale<<<y.size(0), 256>>>(y.data_ptr<float>(), out.data_ptr<float>(), y.size(1), (float)f);
    return out;
}
"""

ext = load_inline(name="row_sum_scale", cpp_sources="torch::Tensor sum_scale(torch::Tensor y, double f);",
                  cuda_sources=src, functions=["sum_scale"])


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        y = x @ self.weight.T   # cuBLAS for the GEMM, custom kernel for the reduction epilogue
        return ext.sum_scale(y.contiguous(), self.scaling_factor / 2)
