# expect: pass flag torch-tail (runtime: torch-fallback, a copy kernel first, then PyTorch's layers do the work)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void stage_input(const float* __restrict__ x, float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
__global__ void relu_inplace(float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(y[i], 0.f);
}
torch::Tensor stage(torch::Tensor x) {
    auto y = torch::empty_like(x);
    stage_input<<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
    return y;
}
torch::Tensor relu_(torch::Tensor y) {
    relu_inplace<<<(y.numel() + 255) / 256, 256>>>(y.data_ptr<float>(), y.numel());
    return y;
}
"""

ext = load_inline(name="mlp_staged", cpp_sources="torch::Tensor stage(torch::Tensor x);\ntorch::Tensor relu_(torch::Tensor y);",
                  cuda_sources=src, functions=["stage", "relu_"])


class ModelNew(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super().__init__()
        self.layers = nn.ModuleList()
        current = input_size
        for size in layer_sizes:
            self.layers.append(nn.Linear(current, size))
            current = size
        self.head = nn.Linear(current, output_size)

    def forward(self, x):
        h = ext.stage(x.contiguous())
        for layer in self.layers:
            h = ext.relu_(layer(h))
        return self.head(h)
