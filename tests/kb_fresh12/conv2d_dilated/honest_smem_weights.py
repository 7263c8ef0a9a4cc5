# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_dil_smemw_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: grid = (pixel blocks, Cout, N). Each block caches the Cin*9 filter taps of its
// output channel in shared memory (chunked over input channels); each thread computes one
// output pixel, reading the input through the read-only cache (__ldg).

#define KS 3
#define DIL 2
#define PAD 2
#define CI_CHUNK 64   // input channels whose weights are staged at once (64*9 floats)

__global__ void conv2d_dil_smemw_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                        const float* __restrict__ b, float* __restrict__ y,
                                        int Cin, int Cout, int H, int W) {
    __shared__ float sw[CI_CHUNK * KS * KS];
    const int co = blockIdx.y;
    const int n = blockIdx.z;
    const int HW = H * W;
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = p < HW;
    const int oh = valid ? p / W : 0;
    const int ow = valid ? p - oh * W : 0;

    float acc = valid ? __ldg(b + co) : 0.f;
    const float* xn = x + (long long)n * Cin * HW;
    const float* wco = w + (long long)co * Cin * KS * KS;

    for (int c0 = 0; c0 < Cin; c0 += CI_CHUNK) {
        const int cc = min(CI_CHUNK, Cin - c0);
        __syncthreads();  // previous chunk fully consumed before overwrite
        for (int e = threadIdx.x; e < cc * KS * KS; e += blockDim.x)
            sw[e] = wco[(long long)c0 * KS * KS + e];
        __syncthreads();
        if (valid) {
            for (int cl = 0; cl < cc; ++cl) {
                const float* xc = xn + (long long)(c0 + cl) * HW;
                const float* wk = sw + cl * KS * KS;
#pragma unroll
                for (int kh = 0; kh < KS; ++kh) {
                    int ih = oh - PAD + kh * DIL;
                    if (ih < 0 || ih >= H) continue;
#pragma unroll
                    for (int kw = 0; kw < KS; ++kw) {
                        int iw = ow - PAD + kw * DIL;
                        if (iw < 0 || iw >= W) continue;
                        acc += __ldg(xc + ih * W + iw) * wk[kh * KS + kw];
                    }
                }
            }
        }
    }
    if (valid) y[((long long)n * Cout + co) * HW + p] = acc;
}

torch::Tensor conv2d_dil_smemw_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
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
    if (y.numel() == 0) return y;
    const int threads = 256;
    dim3 grid((H * W + threads - 1) / threads, Cout, N);
    conv2d_dil_smemw_kernel<<<grid, threads>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        Cin, Cout, H, W);
    return y;
}
"""

conv_mod = load_inline(
    name="kbf12_conv2d_dil_smem_weights",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_dil_smemw_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=2, dilation=2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_mod.conv2d_dil_smemw_cuda(x, self.conv.weight, self.conv.bias)
