# expect: rejected torch-op
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

cuda_src = """
#include <torch/extension.h>
__global__ void epilogue(float* y, const float* b, int plane, int oc, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(y[i], 0.f) + b[(i / plane) % oc];
}
torch::Tensor epilogue_(torch::Tensor y, torch::Tensor b) {
    int n = y.numel();
    epilogue<<<(n + 511) / 512, 512>>>(y.data_ptr<float>(), b.data_ptr<float>(), y.size(2) * y.size(3), y.size(1), n);
    return y;
}
"""

ext = load_inline(name="conv_epilogue", cpp_sources="torch::Tensor epilogue_(torch::Tensor y, torch::Tensor b);",
                  cuda_sources=cuda_src, functions=["epilogue_"])


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_channels, in_channels, kernel_size, kernel_size))
        self.conv_bias = nn.Parameter(torch.empty(out_channels))
        self.bias = nn.Parameter(torch.randn(bias_shape))
        nn.init.kaiming_uniform_(self.weight, a=5 ** 0.5)
        nn.init.uniform_(self.conv_bias, -1 / (in_channels * kernel_size * kernel_size) ** 0.5,
                         1 / (in_channels * kernel_size * kernel_size) ** 0.5)

    def forward(self, x):
        y = F.conv2d(x, self.weight, self.conv_bias)
        return ext.epilogue_(y, self.bias)
