# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

dwconv_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

// One thread per output element; the kernel window is read straight from global memory.
__global__ void depthwise_conv2d_naive_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                              float* __restrict__ y, int N, int C, int H, int W,
                                              int K, int pad, int Ho, int Wo) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * C * Ho * Wo;
    if (idx >= total) return;

    int ow = (int)(idx % Wo);
    long long t = idx / Wo;
    int oh = (int)(t % Ho);
    t /= Ho;
    int c = (int)(t % C);
    int n = (int)(t / C);

    const float* xp = x + ((long long)n * C + c) * H * W;
    const float* wp = w + (long long)c * K * K;

    float acc = 0.0f;
    for (int kh = 0; kh < K; ++kh) {
        int ih = oh - pad + kh;
        if (ih < 0 || ih >= H) continue;
        for (int kw = 0; kw < K; ++kw) {
            int iw = ow - pad + kw;
            if (iw < 0 || iw >= W) continue;
            acc += xp[(long long)ih * W + iw] * wp[kh * K + kw];
        }
    }
    y[idx] = acc;
}

torch::Tensor depthwise_conv2d_cuda(torch::Tensor x, torch::Tensor weight, int64_t padding) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda(), "tensors must be CUDA");
    TORCH_CHECK(x.dim() == 4, "input must be NCHW");
    const int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    const int K = weight.size(2);
    const int pad = (int)padding;
    const int Ho = H + 2 * pad - K + 1;
    const int Wo = W + 2 * pad - K + 1;
    auto y = torch::empty({N, C, Ho, Wo}, x.options());

    long long total = (long long)N * C * Ho * Wo;
    const int threads = 256;
    const long long blocks = (total + threads - 1) / threads;
    depthwise_conv2d_naive_kernel<<<(unsigned int)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), weight.data_ptr<float>(), y.data_ptr<float>(), N, C, H, W, K, pad, Ho, Wo);
    return y;
}
"""

dwconv_cpp_source = "torch::Tensor depthwise_conv2d_cuda(torch::Tensor x, torch::Tensor weight, int64_t padding);"

dwconv = load_inline(
    name="kbf3_dwconv_naive_per_output",
    cpp_sources=dwconv_cpp_source,
    cuda_sources=dwconv_source,
    functions=["depthwise_conv2d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, in_channels, kernel_size, padding=kernel_size // 2,
                              groups=in_channels, bias=False)
        self.padding = kernel_size // 2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return dwconv.depthwise_conv2d_cuda(x.contiguous(), self.conv.weight.contiguous(), self.padding)
