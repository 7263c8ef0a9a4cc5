# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_dil_coblk_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: output-channel register blocking. Each thread owns one output pixel and CO_T
// output channels held in registers; the 9 input taps of each input channel are loaded
// once (via __ldg) and reused for all CO_T channels. Weights for the block's CO_T channels
// are staged in shared memory laid out [ci][tap][co] so the inner loop reads are broadcasts.

#define KS 3
#define DIL 2
#define PAD 2
#define CO_T 16
#define CI_CHUNK 32

__global__ void __launch_bounds__(128)
conv2d_dil_coblk_kernel(const float* __restrict__ x, const float* __restrict__ w,
                        const float* __restrict__ b, float* __restrict__ y,
                        int Cin, int Cout, int H, int W) {
    __shared__ float sw[CI_CHUNK * KS * KS * CO_T];
    const int HW = H * W;
    const int co0 = blockIdx.y * CO_T;
    const int n = blockIdx.z;
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = p < HW;
    const int oh = valid ? p / W : 0;
    const int ow = valid ? p - oh * W : 0;

    float acc[CO_T];
#pragma unroll
    for (int c = 0; c < CO_T; ++c) acc[c] = (co0 + c < Cout) ? __ldg(b + co0 + c) : 0.f;

    // per-thread tap offsets / validity (independent of the input channel)
    int off[KS * KS];
    bool ok[KS * KS];
#pragma unroll
    for (int kh = 0; kh < KS; ++kh) {
#pragma unroll
        for (int kw = 0; kw < KS; ++kw) {
            int ih = oh - PAD + kh * DIL;
            int iw = ow - PAD + kw * DIL;
            bool v = valid && ih >= 0 && ih < H && iw >= 0 && iw < W;
            ok[kh * KS + kw] = v;
            off[kh * KS + kw] = v ? ih * W + iw : 0;
        }
    }

    const float* xn = x + (long long)n * Cin * HW;
    for (int c0 = 0; c0 < Cin; c0 += CI_CHUNK) {
        const int cc = min(CI_CHUNK, Cin - c0);
        __syncthreads();
        // stage weights: sw[(cl*9 + k)*CO_T + c] = w[co0+c][c0+cl][k]
        for (int e = threadIdx.x; e < CI_CHUNK * KS * KS * CO_T; e += blockDim.x) {
            int c = e % CO_T;
            int r = e / CO_T;          // cl*9 + k
            int cl = r / (KS * KS);
            int k = r - cl * KS * KS;
            float v = 0.f;
            if (cl < cc && co0 + c < Cout)
                v = __ldg(w + ((long long)(co0 + c) * Cin + (c0 + cl)) * KS * KS + k);
            sw[e] = v;
        }
        __syncthreads();
        if (valid) {
            for (int cl = 0; cl < cc; ++cl) {
                const float* xc = xn + (long long)(c0 + cl) * HW;
                float v[KS * KS];
#pragma unroll
                for (int k = 0; k < KS * KS; ++k) v[k] = ok[k] ? __ldg(xc + off[k]) : 0.f;
                const float* wk = sw + cl * KS * KS * CO_T;
#pragma unroll
                for (int k = 0; k < KS * KS; ++k) {
#pragma unroll
                    for (int c = 0; c < CO_T; ++c) acc[c] += v[k] * wk[k * CO_T + c];
                }
            }
        }
    }
    if (valid) {
#pragma unroll
        for (int c = 0; c < CO_T; ++c)
            if (co0 + c < Cout) y[((long long)n * Cout + co0 + c) * HW + p] = acc[c];
    }
}

torch::Tensor conv2d_dil_coblk_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
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
    const int threads = 128;
    dim3 grid((H * W + threads - 1) / threads, (Cout + CO_T - 1) / CO_T, N);
    conv2d_dil_coblk_kernel<<<grid, threads>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        Cin, Cout, H, W);
    return y;
}
"""

conv_mod = load_inline(
    name="kbf12_conv2d_dil_pixel_coblock",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_dil_coblk_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=2, dilation=2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_mod.conv2d_dil_coblk_cuda(x, self.conv.weight, self.conv.bias)
