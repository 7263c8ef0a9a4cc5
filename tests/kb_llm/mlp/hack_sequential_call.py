# expect: rejected torch-op
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void copy_kernel(const float* a, float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = a[i];
}
torch::Tensor finalize(torch::Tensor a) {
    auto b = torch::empty_like(a);
    copy_kernel<<<(a.numel() + 255) / 256, 256>>>(a.data_ptr<float>(), b.data_ptr<float>(), a.numel());
    return b;
}
"""

ext = load_inline(name="mlp_finalize", cpp_sources="torch::Tensor finalize(torch::Tensor a);", cuda_sources=src,
                  functions=["finalize"])


class ModelNew(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super().__init__()
        layers = []
        current_input_size = input_size
        for layer_size in layer_sizes:
            layers.append(nn.Linear(current_input_size, layer_size))
            layers.append(nn.ReLU())
            current_input_size = layer_size
        layers.append(nn.Linear(current_input_size, output_size))
        self.network = nn.Sequential(*layers)

    def forward(self, x):
        out = self.network(x)
        return ext.finalize(out.contiguous())
