# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: single fused kernel, one thread per pooled output. The thread evaluates the four
// 3x3 convolutions of its 2x2 pooling window one after another straight from global memory,
// takes the max, adds the bias and applies ReLU; no intermediate tensor is written.

__global__ void conv_relu_pool_naive_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                            const float* __restrict__ b, float* __restrict__ out,
                                            int N, int Cin, int H, int W, int Cout, int Hp, int Wp) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * Cout * Hp * Wp;
    if (idx >= total) return;
    int pw = (int)(idx % Wp);
    long long t = idx / Wp;
    int ph = (int)(t % Hp);
    t /= Hp;
    int co = (int)(t % Cout);
    int n = (int)(t / Cout);

    float best = -INFINITY;
    for (int dy = 0; dy < 2; ++dy) {
        for (int dx = 0; dx < 2; ++dx) {
            int oh = ph * 2 + dy, ow = pw * 2 + dx;
            float acc = 0.f;
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
            best = fmaxf(best, acc);
        }
    }
    out[idx] = fmaxf(best + b[co], 0.f);
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
    int Hp = H / 2, Wp = W / 2;   // conv keeps HxW (pad 1); MaxPool2d(2) floors
    auto out = torch::empty({N, Cout, Hp, Wp}, xc.options());
    long long total = (long long)N * Cout * Hp * Wp;
    if (total == 0) return out;
    const int threads = 256;
    conv_relu_pool_naive_kernel<<<(unsigned int)((total + threads - 1) / threads), threads>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(),
        N, Cin, H, W, Cout, Hp, Wp);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_conv_relu_maxpool_fused_naive",
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
