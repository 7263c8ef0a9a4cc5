# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_s2_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: direct convolution, one thread per output element (n, co, oh, ow),
// every input and weight value read straight from global memory, no reuse.

__global__ void conv2d_s2_naive_kernel(const float* x, const float* w, const float* b, float* y,
                                       int N, int C, int H, int W, int K, int Ho, int Wo) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * K * Ho * Wo;
    if (idx >= total) return;
    int ow = (int)(idx % Wo);
    long long t = idx / Wo;
    int oh = (int)(t % Ho);
    t /= Ho;
    int co = (int)(t % K);
    int n = (int)(t / K);

    float acc = b[co];
    for (int ci = 0; ci < C; ++ci) {
        for (int kh = 0; kh < 3; ++kh) {
            int ih = oh * 2 - 1 + kh;
            if (ih < 0 || ih >= H) continue;
            for (int kw = 0; kw < 3; ++kw) {
                int iw = ow * 2 - 1 + kw;
                if (iw < 0 || iw >= W) continue;
                float xv = x[(((long long)n * C + ci) * H + ih) * W + iw];
                float wv = w[(((long long)co * C + ci) * 3 + kh) * 3 + kw];
                acc += xv * wv;
            }
        }
    }
    y[idx] = acc;
}

torch::Tensor conv2d_s2_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "tensors must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "expected 4D input and weight");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    int N = xc.size(0), C = xc.size(1), H = xc.size(2), W = xc.size(3);
    int K = wc.size(0);
    TORCH_CHECK(wc.size(1) == C && wc.size(2) == 3 && wc.size(3) == 3, "weight shape mismatch");
    int Ho = (H + 2 - 3) / 2 + 1;
    int Wo = (W + 2 - 3) / 2 + 1;
    auto y = torch::empty({N, K, Ho, Wo}, xc.options());
    long long total = (long long)N * K * Ho * Wo;
    if (total == 0) return y;
    int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    conv2d_s2_naive_kernel<<<(unsigned int)blocks, threads>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        N, C, H, W, K, Ho, Wo);
    return y;
}
"""

my_mod = load_inline(
    name="conv2d_s2_naive_direct_s45",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_s2_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=2, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.conv2d_s2_cuda(x, self.conv.weight, self.conv.bias)
