# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_relu_naive(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad);"

cuda_src = r"""
#include <cuda_runtime.h>

// One thread per output element (n, oc, oh, ow); direct cross-correlation with zero padding, bias, ReLU.
__global__ void conv2d_relu_naive_kernel(const float* x, const float* w, const float* b, float* y,
                                         int N, int Cin, int H, int W, int Cout, int K,
                                         int OH, int OW, int pad) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * Cout * OH * OW;
    if (idx >= total) return;
    int ow = (int)(idx % OW);
    long long t = idx / OW;
    int oh = (int)(t % OH);
    t /= OH;
    int oc = (int)(t % Cout);
    int n = (int)(t / Cout);

    float acc = b[oc];
    for (int ci = 0; ci < Cin; ++ci) {
        for (int kh = 0; kh < K; ++kh) {
            int ih = oh - pad + kh;
            if (ih < 0 || ih >= H) continue;
            for (int kw = 0; kw < K; ++kw) {
                int iw = ow - pad + kw;
                if (iw < 0 || iw >= W) continue;
                float xv = x[(((long long)n * Cin + ci) * H + ih) * W + iw];
                float wv = w[(((long long)oc * Cin + ci) * K + kh) * K + kw];
                acc += xv * wv;
            }
        }
    }
    y[idx] = acc > 0.f ? acc : 0.f;
}

torch::Tensor conv2d_relu_naive(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "tensors must be CUDA");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "tensors must be float32");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "x must be NCHW and w must be (Cout, Cin, K, K)");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    const int N = xc.size(0), Cin = xc.size(1), H = xc.size(2), W = xc.size(3);
    const int Cout = wc.size(0), K = wc.size(2);
    TORCH_CHECK(wc.size(1) == Cin && wc.size(3) == K, "weight shape mismatch");
    TORCH_CHECK(bc.numel() == Cout, "bias shape mismatch");
    const int OH = H + 2 * (int)pad - K + 1;
    const int OW = W + 2 * (int)pad - K + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "empty output");
    auto y = torch::empty({N, Cout, OH, OW}, xc.options());
    long long total = (long long)N * Cout * OH * OW;
    if (total == 0) return y;
    const int threads = 256;
    conv2d_relu_naive_kernel<<<(unsigned)((total + threads - 1) / threads), threads>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        N, Cin, H, W, Cout, K, OH, OW, (int)pad);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "conv2d_relu_naive launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

ext = load_inline(
    name="conv2d_5x5_relu_naive_thread_per_output",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_relu_naive"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.conv2d_relu_naive(x, self.conv.weight, self.conv.bias, self.conv.padding[0])
