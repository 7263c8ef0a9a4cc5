# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, int64_t pad_h, int64_t pad_w);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: direct convolution, one thread per output element, every input and weight value
// read straight from global memory (no data reuse beyond what the caches give).

__global__ void conv2d_naive_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                    float* __restrict__ y,
                                    int N, int Cin, int H, int W, int Cout, int Ho, int Wo,
                                    int KH, int KW, int PH, int PW) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * Cout * Ho * Wo;
    if (idx >= total) return;
    int ow = (int)(idx % Wo);
    long long t = idx / Wo;
    int oh = (int)(t % Ho);
    t /= Ho;
    int co = (int)(t % Cout);
    int n = (int)(t / Cout);

    float acc = 0.f;
    for (int ci = 0; ci < Cin; ++ci) {
        const float* xc = x + ((size_t)n * Cin + ci) * H * W;
        const float* wc = w + ((size_t)co * Cin + ci) * KH * KW;
        for (int kh = 0; kh < KH; ++kh) {
            int ih = oh - PH + kh;
            if (ih < 0 || ih >= H) continue;
            for (int kw = 0; kw < KW; ++kw) {
                int iw = ow - PW + kw;
                if (iw < 0 || iw >= W) continue;
                acc += xc[(size_t)ih * W + iw] * wc[kh * KW + kw];
            }
        }
    }
    y[idx] = acc;
}

torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, int64_t pad_h, int64_t pad_w) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "4-D tensors expected");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    int N = xc.size(0), Cin = xc.size(1), H = xc.size(2), W = xc.size(3);
    int Cout = wc.size(0), KH = wc.size(2), KW = wc.size(3);
    TORCH_CHECK(wc.size(1) == Cin, "channel mismatch");
    int PH = (int)pad_h, PW = (int)pad_w;
    int Ho = H + 2 * PH - KH + 1;
    int Wo = W + 2 * PW - KW + 1;
    TORCH_CHECK(Ho > 0 && Wo > 0, "bad output size");
    auto out = torch::empty({N, Cout, Ho, Wo}, xc.options());
    long long total = (long long)N * Cout * Ho * Wo;
    if (total == 0) return out;
    int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    conv2d_naive_kernel<<<(unsigned int)blocks, threads>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), out.data_ptr<float>(),
        N, Cin, H, W, Cout, Ho, Wo, KH, KW, PH, PW);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_conv2d_asym_naive_direct",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, (3, 7), padding=(1, 3), bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x, self.conv.weight, self.conv.padding[0], self.conv.padding[1])
