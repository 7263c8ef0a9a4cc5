# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: straightforward port of the three PyTorch ops. Kernel 1: direct 3x3 convolution with
// bias, one thread per conv output, all reads from global memory, written to a full-resolution
// intermediate. Kernel 2: in-place ReLU. Kernel 3: 2x2/stride-2 max pooling, one thread per output.

__global__ void conv3x3_bias_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                    const float* __restrict__ b, float* __restrict__ y,
                                    int N, int Cin, int H, int W, int Cout, int Ho, int Wo) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * Cout * Ho * Wo;
    if (idx >= total) return;
    int ow = (int)(idx % Wo);
    long long t = idx / Wo;
    int oh = (int)(t % Ho);
    t /= Ho;
    int co = (int)(t % Cout);
    int n = (int)(t / Cout);
    float acc = b[co];
    for (int ci = 0; ci < Cin; ++ci) {
        const float* xc = x + ((size_t)n * Cin + ci) * H * W;
        const float* wc = w + ((size_t)co * Cin + ci) * 9;
        for (int kh = 0; kh < 3; ++kh) {
            int ih = oh - 1 + kh;
            if (ih < 0 || ih >= H) continue;
            for (int kw = 0; kw < 3; ++kw) {
                int iw = ow - 1 + kw;
                if (iw < 0 || iw >= W) continue;
                acc += xc[(size_t)ih * W + iw] * wc[kh * 3 + kw];
            }
        }
    }
    y[idx] = acc;
}

__global__ void relu_inplace_kernel(float* __restrict__ y, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(y[i], 0.f);
}

__global__ void maxpool2x2_kernel(const float* __restrict__ y, float* __restrict__ out,
                                  long long NC, int Ho, int Wo, int Hp, int Wp) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = NC * Hp * Wp;
    if (idx >= total) return;
    int pw = (int)(idx % Wp);
    long long t = idx / Wp;
    int ph = (int)(t % Hp);
    long long nc = t / Hp;
    const float* yc = y + (size_t)nc * Ho * Wo;
    int r = ph * 2, c = pw * 2;
    float m = yc[(size_t)r * Wo + c];
    m = fmaxf(m, yc[(size_t)r * Wo + c + 1]);
    m = fmaxf(m, yc[(size_t)(r + 1) * Wo + c]);
    m = fmaxf(m, yc[(size_t)(r + 1) * Wo + c + 1]);
    out[idx] = m;
}

torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "CUDA tensors expected");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "4-D tensors expected");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    int N = xc.size(0), Cin = xc.size(1), H = xc.size(2), W = xc.size(3);
    int Cout = wc.size(0);
    TORCH_CHECK(wc.size(1) == Cin && wc.size(2) == 3 && wc.size(3) == 3, "expected a 3x3 filter");
    TORCH_CHECK(bc.numel() == Cout, "bias size mismatch");
    int Ho = H, Wo = W;            // 3x3, stride 1, padding 1
    int Hp = Ho / 2, Wp = Wo / 2;  // MaxPool2d(2), floor mode
    auto out = torch::empty({N, Cout, Hp, Wp}, xc.options());
    auto mid = torch::empty({N, Cout, Ho, Wo}, xc.options());
    long long convTotal = (long long)N * Cout * Ho * Wo;
    long long poolTotal = (long long)N * Cout * Hp * Wp;
    const int threads = 256;
    if (convTotal > 0) {
        conv3x3_bias_kernel<<<(unsigned int)((convTotal + threads - 1) / threads), threads>>>(
            xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), mid.data_ptr<float>(),
            N, Cin, H, W, Cout, Ho, Wo);
        relu_inplace_kernel<<<(unsigned int)((convTotal + threads - 1) / threads), threads>>>(
            mid.data_ptr<float>(), convTotal);
    }
    if (poolTotal > 0) {
        maxpool2x2_kernel<<<(unsigned int)((poolTotal + threads - 1) / threads), threads>>>(
            mid.data_ptr<float>(), out.data_ptr<float>(), (long long)N * Cout, Ho, Wo, Hp, Wp);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_conv_relu_maxpool_unfused_three_kernels",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1)
        self.pool = nn.MaxPool2d(2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x, self.conv.weight, self.conv.bias)
