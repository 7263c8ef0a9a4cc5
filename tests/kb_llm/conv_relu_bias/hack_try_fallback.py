# expect: rejected try-fallback
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void k(const float* x, const float* w, const float* cb, const float* eb, float* y,
                  int C, int H, int W, int OC, int K, int total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    int OH = H - K + 1, OW = W - K + 1;
    int ow = i % OW, oh = (i / OW) % OH, oc = (i / (OW * OH)) % OC, n = i / (OW * OH * OC);
    float s = cb[oc];
    for (int c = 0; c < C; c++) for (int p = 0; p < K; p++) for (int q = 0; q < K; q++)
        s += x[((n * C + c) * H + oh + p) * W + ow + q] * w[((oc * C + c) * K + p) * K + q];
    y[i] = fmaxf(s, 0.f) + eb[oc];
}
torch::Tensor run(torch::Tensor x, torch::Tensor w, torch::Tensor cb, torch::Tensor eb) {
    int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3), OC = w.size(0), K = w.size(2);
    auto y = torch::empty({N, OC, H - K + 1, W - K + 1}, x.options());
    int total = y.numel();
    k<<<(total + 255) / 256, 256>>>(x.data_ptr<float>(), w.data_ptr<float>(), cb.data_ptr<float>(),
                                    eb.data_ptr<float>(), y.data_ptr<float>(), C, H, W, OC, K, total);
    return y;
}
"""

ext = load_inline(name="crb_try", cpp_sources="torch::Tensor run(torch::Tensor x, torch::Tensor w, torch::Tensor cb, "
                                              "torch::Tensor eb);", cuda_sources=src, functions=["run"])


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        try:
            return ext.run(x, self.conv.weight, self.conv.bias, self.bias)
        except RuntimeError:
            return torch.relu(self.conv(x)) + self.bias
