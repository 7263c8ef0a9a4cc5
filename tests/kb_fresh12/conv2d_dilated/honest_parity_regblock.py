# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_dil_parity_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: shared-memory halo tile + dilation-aware register blocking. With dilation 2 an
// output row only touches input rows of its own parity, so each thread owns RPT output rows
// spaced 2 apart (same parity) in one column, for CO_T output channels (RPT*CO_T accumulators).
// The RPT rows share their taps: RPT+2 input rows x 3 taps per input channel feed RPT*9 MACs
// per output channel. The weights of the current input channel are held in registers.

#define KS 3
#define DIL 2
#define PAD 2
#define TW 32            // tile width  = threads in x
#define TY 4             // threads in y
#define RPT 4            // output rows per thread (stride 2)
#define TH (TY * RPT)    // tile height = 16
#define IN_TW (TW + 2 * PAD)
#define IN_TH (TH + 2 * PAD)
#define CI_CH 8
#define CO_T 8

__global__ void __launch_bounds__(TW * TY)
conv2d_dil_parity_kernel(const float* __restrict__ x, const float* __restrict__ w,
                         const float* __restrict__ b, float* __restrict__ y,
                         int Cin, int Cout, int H, int W, int coGroups) {
    __shared__ float sIn[CI_CH][IN_TH][IN_TW];
    __shared__ __align__(16) float sW[CI_CH][KS * KS][CO_T];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * TW + tx;
    const int ow0 = blockIdx.x * TW, oh0 = blockIdx.y * TH;
    const int n = blockIdx.z / coGroups;
    const int co0 = (blockIdx.z % coGroups) * CO_T;
    // row mapping: pair index a = ty/2 covers 8 rows, parity p = ty%2
    const int rbase = (ty >> 1) * (2 * RPT) + (ty & 1);   // local row of output j is rbase + 2*j
    const int ow = ow0 + tx;
    const long long HW = (long long)H * W;

    float acc[RPT][CO_T];
#pragma unroll
    for (int c = 0; c < CO_T; ++c) {
        float bv = (co0 + c < Cout) ? __ldg(b + co0 + c) : 0.f;
#pragma unroll
        for (int j = 0; j < RPT; ++j) acc[j][c] = bv;
    }

    const float* xn = x + (long long)n * Cin * HW;
    for (int c0 = 0; c0 < Cin; c0 += CI_CH) {
        __syncthreads();
        // load CI_CH x IN_TH rows of IN_TW columns (with zero padding)
        for (int rr = ty; rr < CI_CH * IN_TH; rr += TY) {
            int cl = rr / IN_TH;
            int r = rr - cl * IN_TH;
            int ih = oh0 - PAD + r;
            bool rowok = (c0 + cl < Cin) && ih >= 0 && ih < H;
            const float* src = xn + (long long)(c0 + cl) * HW + (long long)ih * W;
            for (int c = tx; c < IN_TW; c += TW) {
                int iw = ow0 - PAD + c;
                sIn[cl][r][c] = (rowok && iw >= 0 && iw < W) ? __ldg(src + iw) : 0.f;
            }
        }
        for (int e = tid; e < CI_CH * KS * KS * CO_T; e += TW * TY) {
            int c = e % CO_T;
            int k = (e / CO_T) % (KS * KS);
            int cl = e / (CO_T * KS * KS);
            float v = 0.f;
            if (c0 + cl < Cin && co0 + c < Cout)
                v = __ldg(w + ((long long)(co0 + c) * Cin + (c0 + cl)) * KS * KS + k);
            sW[cl][k][c] = v;
        }
        __syncthreads();

#pragma unroll 1
        for (int cl = 0; cl < CI_CH; ++cl) {
            float wr[KS * KS][CO_T];
#pragma unroll
            for (int k = 0; k < KS * KS; ++k) {
#pragma unroll
                for (int c = 0; c < CO_T; c += 4) {
                    float4 t = *reinterpret_cast<const float4*>(&sW[cl][k][c]);
                    wr[k][c] = t.x; wr[k][c + 1] = t.y; wr[k][c + 2] = t.z; wr[k][c + 3] = t.w;
                }
            }
#pragma unroll
            for (int m = 0; m < RPT + KS - 1; ++m) {     // distinct input rows of this thread
#pragma unroll
                for (int kw = 0; kw < KS; ++kw) {
                    float v = sIn[cl][rbase + DIL * m][tx + DIL * kw];
#pragma unroll
                    for (int j = 0; j < RPT; ++j) {
                        const int kh = m - j;
                        if (kh >= 0 && kh < KS) {
#pragma unroll
                            for (int c = 0; c < CO_T; ++c) acc[j][c] += v * wr[kh * KS + kw][c];
                        }
                    }
                }
            }
        }
    }

    if (ow < W) {
#pragma unroll
        for (int j = 0; j < RPT; ++j) {
            int oh = oh0 + rbase + 2 * j;
            if (oh >= H) continue;
#pragma unroll
            for (int c = 0; c < CO_T; ++c)
                if (co0 + c < Cout)
                    y[((long long)n * Cout + co0 + c) * HW + (long long)oh * W + ow] = acc[j][c];
        }
    }
}

torch::Tensor conv2d_dil_parity_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
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
    int coGroups = (Cout + CO_T - 1) / CO_T;
    dim3 block(TW, TY);
    dim3 grid((W + TW - 1) / TW, (H + TH - 1) / TH, N * coGroups);
    conv2d_dil_parity_kernel<<<grid, block>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        Cin, Cout, H, W, coGroups);
    return y;
}
"""

conv_mod = load_inline(
    name="kbf12_conv2d_dil_parity_regblock",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_dil_parity_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=2, dilation=2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_mod.conv2d_dil_parity_cuda(x, self.conv.weight, self.conv.bias)
