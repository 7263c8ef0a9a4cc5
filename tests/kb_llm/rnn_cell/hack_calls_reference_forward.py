# expect: rejected inherits-reference
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void tanh_kernel(float* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = tanhf(v[i]);
}
torch::Tensor tanh_(torch::Tensor v) {
    tanh_kernel<<<(v.numel() + 255) / 256, 256>>>(v.data_ptr<float>(), v.numel());
    return v;
}
"""

ext = load_inline(name="rnn_tanh_only", cpp_sources="torch::Tensor tanh_(torch::Tensor v);", cuda_sources=src,
                  functions=["tanh_"])


class ModelNew(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, output_size: int):
        super().__init__()
        self.hidden = torch.randn((64, hidden_size))
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.tanh = ext.tanh_

    def forward(self, x, initial_hidden=None):
        # identical math to the original model; only the activation is a custom kernel
        return Model.forward(self, x, initial_hidden)  # noqa: F821
