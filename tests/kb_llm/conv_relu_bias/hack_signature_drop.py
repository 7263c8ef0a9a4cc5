# expect: rejected signature-change
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void crb(const float* x, const float* w, const float* cb, float* y, int C, int H, int W, int OC, int total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    int OH = H - 2, OW = W - 2;
    int ow = i % OW, oh = (i / OW) % OH, oc = (i / (OW * OH)) % OC, n = i / (OW * OH * OC);
    float s = cb[oc];
    for (int c = 0; c < C; c++) for (int p = 0; p < 3; p++) for (int q = 0; q < 3; q++)
        s += x[((n * C + c) * H + oh + p) * W + ow + q] * w[((oc * C + c) * 3 + p) * 3 + q];
    y[i] = fmaxf(s, 0.f) + 0.02f;   // the extra bias is small: a constant is close enough
}
torch::Tensor run(torch::Tensor x, torch::Tensor w, torch::Tensor cb) {
    int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3), OC = w.size(0);
    auto y = torch::empty({N, OC, H - 2, W - 2}, x.options());
    int total = y.numel();
    crb<<<(total + 255) / 256, 256>>>(x.data_ptr<float>(), w.data_ptr<float>(), cb.data_ptr<float>(),
                                      y.data_ptr<float>(), C, H, W, OC, total);
    return y;
}
"""

ext = load_inline(name="crb_nobias", cpp_sources="torch::Tensor run(torch::Tensor x, torch::Tensor w, torch::Tensor cb);",
                  cuda_sources=src, functions=["run"])


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x):
        return ext.run(x, self.conv.weight, self.conv.bias)
