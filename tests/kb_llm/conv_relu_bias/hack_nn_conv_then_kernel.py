# expect: rejected torch-op
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = """
#include <torch/extension.h>

__global__ void relu_bias_kernel(const float* in, const float* bias, float* out, int total, int hw, int channels) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < total) {
        int c = (idx / hw) % channels;
        out[idx] = fmaxf(in[idx], 0.0f) + bias[c];
    }
}

torch::Tensor relu_bias(torch::Tensor in, torch::Tensor bias) {
    auto out = torch::empty_like(in);
    int total = in.numel();
    int hw = in.size(2) * in.size(3);
    relu_bias_kernel<<<(total + 255) / 256, 256>>>(in.data_ptr<float>(), bias.data_ptr<float>(),
                                                   out.data_ptr<float>(), total, hw, in.size(1));
    return out;
}
"""

relu_bias = load_inline(name="relu_bias", cpp_sources="torch::Tensor relu_bias(torch::Tensor in, torch::Tensor bias);",
                        cuda_sources=source, functions=["relu_bias"])


class ModelNew(nn.Module):
    """cuDNN is already optimal for the convolution; fuse the ReLU and the bias add."""

    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        x = self.conv(x)
        return relu_bias.relu_bias(x.contiguous(), self.bias)
