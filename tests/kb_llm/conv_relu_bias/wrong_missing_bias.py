# expect: pass (runtime: incorrect, the learned bias is never added)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv_source = """
#include <torch/extension.h>

__global__ void conv_relu_kernel(const float* x, const float* w, const float* b, float* y,
                                 int C, int H, int W, int OC, int K, int total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    int OH = H - K + 1, OW = W - K + 1;
    int ow = i % OW, oh = (i / OW) % OH, oc = (i / (OW * OH)) % OC, n = i / (OW * OH * OC);
    float s = b[oc];
    for (int c = 0; c < C; c++)
        for (int p = 0; p < K; p++)
            for (int q = 0; q < K; q++)
                s += x[((n * C + c) * H + oh + p) * W + ow + q] * w[((oc * C + c) * K + p) * K + q];
    y[i] = fmaxf(s, 0.f);
}

torch::Tensor conv_relu(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3), OC = w.size(0), K = w.size(2);
    auto y = torch::empty({N, OC, H - K + 1, W - K + 1}, x.options());
    int total = y.numel();
    conv_relu_kernel<<<(total + 255) / 256, 256>>>(x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(),
                                                   y.data_ptr<float>(), C, H, W, OC, K, total);
    return y;
}
"""

conv_relu = load_inline(name="conv_relu_only",
                        cpp_sources="torch::Tensor conv_relu(torch::Tensor x, torch::Tensor w, torch::Tensor b);",
                        cuda_sources=conv_source, functions=["conv_relu"])


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        return conv_relu.conv_relu(x.contiguous(), self.conv.weight, self.conv.bias)
