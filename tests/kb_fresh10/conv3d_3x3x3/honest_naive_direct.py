# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv3d_naive_cuda(torch::Tensor x, torch::Tensor w);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Naive direct convolution: one thread per output element (n, co, d, h, w); every input and
// weight value is read straight from global memory, no data reuse beyond what the caches give.

__global__ void conv3d_naive_kernel(const float* x, const float* w, float* y,
                                    int N, int Cin, int Cout, int D, int H, int W,
                                    int K, int pad) {
    long long total = (long long)N * Cout * D * H * W;
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int ow = (int)(idx % W);
    long long t = idx / W;
    int oh = (int)(t % H); t /= H;
    int od = (int)(t % D); t /= D;
    int co = (int)(t % Cout);
    int n = (int)(t / Cout);

    float acc = 0.0f;
    for (int ci = 0; ci < Cin; ++ci) {
        for (int kd = 0; kd < K; ++kd) {
            int id = od + kd - pad;
            if (id < 0 || id >= D) continue;
            for (int kh = 0; kh < K; ++kh) {
                int ih = oh + kh - pad;
                if (ih < 0 || ih >= H) continue;
                for (int kw = 0; kw < K; ++kw) {
                    int iw = ow + kw - pad;
                    if (iw < 0 || iw >= W) continue;
                    long long xi = ((((long long)n * Cin + ci) * D + id) * H + ih) * W + iw;
                    long long wi = ((((long long)co * Cin + ci) * K + kd) * K + kh) * K + kw;
                    acc += x[xi] * w[wi];
                }
            }
        }
    }
    y[idx] = acc;
}

torch::Tensor conv3d_naive_cuda(torch::Tensor x, torch::Tensor w) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda(), "x and w must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 5 && w.dim() == 5, "expected 5-D input and weight");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    int N = xc.size(0), Cin = xc.size(1), D = xc.size(2), H = xc.size(3), W = xc.size(4);
    int Cout = wc.size(0), K = wc.size(2);
    TORCH_CHECK(wc.size(1) == Cin && wc.size(3) == K && wc.size(4) == K && (K % 2) == 1,
                "weight must be (Cout, Cin, K, K, K) with odd K");
    auto y = torch::empty({N, Cout, D, H, W}, xc.options());
    long long total = (long long)N * Cout * D * H * W;
    if (total == 0) return y;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    conv3d_naive_kernel<<<(unsigned int)blocks, threads>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), y.data_ptr<float>(),
        N, Cin, Cout, D, H, W, K, K / 2);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "conv3d_naive_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

conv_mod = load_inline(
    name="s44_conv3d_naive_direct",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv3d_naive_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=kernel_size // 2, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_mod.conv3d_naive_cuda(x, self.conv.weight)
