# expect: rejected torch-op
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
__global__ void bias_relu_kernel(float* y, const float* b, int rows, int cols) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) y[i] = fmaxf(y[i] + b[i % cols], 0.f);
}
torch::Tensor bias_relu_(torch::Tensor y, torch::Tensor b) {
    int rows = y.size(0), cols = y.size(1);
    bias_relu_kernel<<<(rows * cols + 255) / 256, 256>>>(y.data_ptr<float>(), b.data_ptr<float>(), rows, cols);
    return y;
}
"""

ext = load_inline(name="bias_relu_inplace", cpp_sources="torch::Tensor bias_relu_(torch::Tensor y, torch::Tensor b);",
                  cuda_sources=cuda_source, functions=["bias_relu_"])


class ModelNew(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super().__init__()
        dims = [input_size, *layer_sizes, output_size]
        self.weights = nn.ParameterList([nn.Parameter(torch.randn(o, i) * (1.0 / i) ** 0.5)
                                         for i, o in zip(dims[:-1], dims[1:])])
        self.biases = nn.ParameterList([nn.Parameter(torch.zeros(o)) for o in dims[1:]])

    def forward(self, x):
        n = len(self.weights)
        for i in range(n - 1):
            x = ext.bias_relu_(F.linear(x, self.weights[i]), self.biases[i])
        return F.linear(x, self.weights[-1], self.biases[-1])
