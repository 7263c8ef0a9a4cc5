# expect: pass (runtime: incorrect, ReLU applied after the output layer too)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void fc_relu(const float* x, const float* w, const float* b, float* y, int k, int m) {
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y;
    if (col >= m) return;
    float acc = b[col];
    for (int i = 0; i < k; ++i) acc += x[row * k + i] * w[col * k + i];
    y[row * m + col] = fmaxf(acc, 0.f);
}
torch::Tensor fc(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    int n = x.size(0), k = x.size(1), m = w.size(0);
    auto y = torch::empty({n, m}, x.options());
    fc_relu<<<dim3((m + 127) / 128, n), 128>>>(x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(),
                                             y.data_ptr<float>(), k, m);
    return y;
}
"""

ext = load_inline(name="fc_relu_all", cpp_sources="torch::Tensor fc(torch::Tensor x, torch::Tensor w, torch::Tensor b);",
                  cuda_sources=src, functions=["fc"])


class ModelNew(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super().__init__()
        sizes = [input_size] + layer_sizes + [output_size]
        self.fcs = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])

    def forward(self, x):
        for fc in self.fcs:
            x = ext.fc(x.contiguous(), fc.weight, fc.bias)
        return x
