# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_dil_naive_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: one thread per output element; every input and weight value is read
// straight from global memory, no data reuse between threads.

#define KS 3
#define DIL 2
#define PAD 2

__global__ void conv2d_dil_naive_kernel(const float* x, const float* w, const float* b, float* y,
                                        int N, int Cin, int Cout, int H, int W) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * Cout * H * W;
    if (idx >= total) return;
    int ow = (int)(idx % W);
    long long t = idx / W;
    int oh = (int)(t % H);
    t /= H;
    int co = (int)(t % Cout);
    int n = (int)(t / Cout);

    float acc = b[co];
    for (int ci = 0; ci < Cin; ++ci) {
        for (int kh = 0; kh < KS; ++kh) {
            int ih = oh - PAD + kh * DIL;
            if (ih < 0 || ih >= H) continue;
            for (int kw = 0; kw < KS; ++kw) {
                int iw = ow - PAD + kw * DIL;
                if (iw < 0 || iw >= W) continue;
                float xv = x[(((long long)n * Cin + ci) * H + ih) * W + iw];
                float wv = w[(((long long)co * Cin + ci) * KS + kh) * KS + kw];
                acc += xv * wv;
            }
        }
    }
    y[idx] = acc;
}

torch::Tensor conv2d_dil_naive_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 4, "x must be NCHW");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(w.size(2) == KS && w.size(3) == KS, "kernel must be 3x3");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    int N = (int)xc.size(0), Cin = (int)xc.size(1), H = (int)xc.size(2), W = (int)xc.size(3);
    int Cout = (int)wc.size(0);
    TORCH_CHECK(wc.size(1) == Cin, "channel mismatch");
    auto y = torch::empty({N, Cout, H, W}, xc.options());
    long long total = (long long)N * Cout * H * W;
    if (total == 0) return y;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    conv2d_dil_naive_kernel<<<(unsigned)blocks, threads>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        N, Cin, Cout, H, W);
    return y;
}
"""

conv_mod = load_inline(
    name="kbf12_conv2d_dil_naive_direct",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_dil_naive_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=2, dilation=2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_mod.conv2d_dil_naive_cuda(x, self.conv.weight, self.conv.bias)
