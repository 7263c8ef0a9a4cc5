# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv_relu_bias_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void conv_relu_bias_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                      const float* __restrict__ conv_b, const float* __restrict__ extra_b,
                                      float* __restrict__ y, int N, int C, int H, int W, int OC, int KS,
                                      int OH, int OW) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int total = N * OC * OH * OW;
    if (idx >= total) return;
    int ow = idx % OW;
    int oh = (idx / OW) % OH;
    int oc = (idx / (OW * OH)) % OC;
    int n = idx / (OW * OH * OC);
    float acc = conv_b[oc];
    for (int c = 0; c < C; ++c) {
        for (int kh = 0; kh < KS; ++kh) {
            for (int kw = 0; kw < KS; ++kw) {
                float xv = x[((n * C + c) * H + oh + kh) * W + ow + kw];
                float wv = w[((oc * C + c) * KS + kh) * KS + kw];
                acc += xv * wv;
            }
        }
    }
    acc = fmaxf(acc, 0.0f);
    y[idx] = acc + extra_b[oc];
}

torch::Tensor conv_relu_bias_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor conv_b, torch::Tensor extra_b) {
    int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    int OC = w.size(0), KS = w.size(2);
    int OH = H - KS + 1, OW = W - KS + 1;
    auto y = torch::empty({N, OC, OH, OW}, x.options());
    int total = N * OC * OH * OW;
    int block = 256;
    conv_relu_bias_kernel<<<(total + block - 1) / block, block>>>(
        x.data_ptr<float>(), w.data_ptr<float>(), conv_b.data_ptr<float>(), extra_b.data_ptr<float>(),
        y.data_ptr<float>(), N, C, H, W, OC, KS, OH, OW);
    return y;
}
"""

conv_relu_bias_cpp_source = (
    "torch::Tensor conv_relu_bias_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor conv_b, "
    "torch::Tensor extra_b);"
)

conv_relu_bias = load_inline(
    name="conv_relu_bias",
    cpp_sources=conv_relu_bias_cpp_source,
    cuda_sources=conv_relu_bias_source,
    functions=["conv_relu_bias_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self.conv_relu_bias = conv_relu_bias

    def forward(self, x):
        return self.conv_relu_bias.conv_relu_bias_cuda(
            x.contiguous(), self.conv.weight.contiguous(), self.conv.bias.contiguous(), self.bias.contiguous()
        )
