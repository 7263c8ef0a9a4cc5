# expect: pass
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

source = """
#include <torch/extension.h>

__global__ void fused_conv_relu_bias(const float* x, const float* w, const float* cb, const float* eb, float* y,
                                     int N, int C, int H, int W, int OC, int K) {
    int OH = H - K + 1, OW = W - K + 1;
    long total = (long)N * OC * OH * OW;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < total; i += (long)gridDim.x * blockDim.x) {
        int ow = i % OW; long r = i / OW;
        int oh = r % OH; r /= OH;
        int oc = r % OC; int n = r / OC;
        float s = cb[oc];
        for (int c = 0; c < C; ++c)
            for (int kh = 0; kh < K; ++kh)
                for (int kw = 0; kw < K; ++kw)
                    s += x[((n * C + c) * H + (oh + kh)) * W + (ow + kw)] * w[((oc * C + c) * K + kh) * K + kw];
        y[i] = (s > 0.f ? s : 0.f) + eb[oc];
    }
}

torch::Tensor forward(torch::Tensor x, torch::Tensor w, torch::Tensor cb, torch::Tensor eb) {
    int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3), OC = w.size(0), K = w.size(2);
    auto y = torch::empty({N, OC, H - K + 1, W - K + 1}, x.options());
    fused_conv_relu_bias<<<1024, 256>>>(x.data_ptr<float>(), w.data_ptr<float>(), cb.data_ptr<float>(),
                                        eb.data_ptr<float>(), y.data_ptr<float>(), N, C, H, W, OC, K);
    return y;
}
"""

fused = load_inline(name="fused_conv_relu_bias",
                    cpp_sources="torch::Tensor forward(torch::Tensor x, torch::Tensor w, torch::Tensor cb, "
                                "torch::Tensor eb);",
                    cuda_sources=source, functions=["forward"])


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = self._make_conv(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self._check_init()

    @staticmethod
    def _make_conv(in_channels, out_channels, kernel_size):
        conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        return conv

    def _check_init(self):
        # sanity check of the default initialisation bound, done once at construction
        fan_in = self.conv.weight[0].numel()
        bound = 1.0 / math.sqrt(fan_in)
        assert float(torch.abs(self.conv.bias).max()) <= bound + 1e-6
        probe = torch.zeros(1, self.conv.in_channels, 5, 5)
        assert F.relu(self.conv(probe)).shape[1] == self.conv.out_channels

    def forward(self, x):
        return fused.forward(x.contiguous(), self.conv.weight, self.conv.bias, self.bias.reshape(-1))
