# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_s2_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: direct convolution with output-channel register blocking. A 256-thread block owns an
// 8 x 32 output tile for 16 output channels; each thread keeps 16 accumulators (one pixel, 16
// c_out). Per stage of 4 input channels the 17 x 65 input halo is staged in shared memory with
// even and odd columns de-interleaved (so the stride-2 reads are bank-conflict free), and the
// filter taps are stored [ci][tap][c_out] so each tap's 16 weights are read as four float4
// broadcasts. Every staged input value is reused for 16 output channels.

#define TOH 8            // output rows per block
#define TOW 32           // output cols per block (one warp per row)
#define KB 16            // output channels per block
#define CC 4             // input channels per stage
#define IH (2 * TOH + 1) // 17
#define IW (2 * TOW + 1) // 65
#define ODD_OFF ((IW + 1) / 2)  // 33 even columns first, then 32 odd columns

__global__ void __launch_bounds__(256)
conv2d_s2_regblk_kernel(const float* __restrict__ x, const float* __restrict__ w,
                        const float* __restrict__ b, float* __restrict__ y,
                        int N, int C, int H, int W, int K, int Ho, int Wo, int KG) {
    __shared__ float s_in[CC][IH][IW];
    __shared__ __align__(16) float s_w[CC * 9 * KB];

    const int tid = threadIdx.x;
    const int tx = tid & 31;      // output column inside tile
    const int ty = tid >> 5;      // output row inside tile
    const int n = blockIdx.z / KG;
    const int k0 = (blockIdx.z % KG) * KB;
    const int oh0 = blockIdx.y * TOH, ow0 = blockIdx.x * TOW;
    const int ih_base = oh0 * 2 - 1, iw_base = ow0 * 2 - 1;
    const float* xn = x + (long long)n * C * H * W;

    float acc[KB];
    #pragma unroll
    for (int j = 0; j < KB; ++j) acc[j] = 0.f;

    for (int c0 = 0; c0 < C; c0 += CC) {
        // input halo tile, coalesced along the image row
        for (int i = tid; i < CC * IH * IW; i += 256) {
            int cc = i / (IH * IW);
            int rem = i - cc * (IH * IW);
            int r = rem / IW;
            int col = rem - r * IW;
            int ci = c0 + cc;
            int ih = ih_base + r, iw = iw_base + col;
            float v = 0.f;
            if (ci < C && ih >= 0 && ih < H && iw >= 0 && iw < W)
                v = __ldg(&xn[((long long)ci * H + ih) * W + iw]);
            int scol = (col & 1) ? (ODD_OFF + (col >> 1)) : (col >> 1);
            s_in[cc][r][scol] = v;
        }
        // weights as [cc][tap][kb]
        for (int i = tid; i < CC * 9 * KB; i += 256) {
            int kb = i % KB;
            int t = i / KB;
            int tap = t % 9;
            int cc = t / 9;
            int ci = c0 + cc, co = k0 + kb;
            float v = 0.f;
            if (ci < C && co < K) v = __ldg(&w[((long long)co * C + ci) * 9 + tap]);
            s_w[i] = v;
        }
        __syncthreads();

        #pragma unroll
        for (int cc = 0; cc < CC; ++cc) {
            #pragma unroll
            for (int kh = 0; kh < 3; ++kh) {
                const float* row = &s_in[cc][2 * ty + kh][0];
                float v[3];
                v[0] = row[tx];              // column 2*tx     (even)
                v[1] = row[ODD_OFF + tx];    // column 2*tx + 1 (odd)
                v[2] = row[tx + 1];          // column 2*tx + 2 (even)
                #pragma unroll
                for (int kw = 0; kw < 3; ++kw) {
                    const float4* wv = reinterpret_cast<const float4*>(&s_w[(cc * 9 + kh * 3 + kw) * KB]);
                    #pragma unroll
                    for (int q = 0; q < KB / 4; ++q) {
                        float4 ww = wv[q];
                        acc[4 * q + 0] = fmaf(v[kw], ww.x, acc[4 * q + 0]);
                        acc[4 * q + 1] = fmaf(v[kw], ww.y, acc[4 * q + 1]);
                        acc[4 * q + 2] = fmaf(v[kw], ww.z, acc[4 * q + 2]);
                        acc[4 * q + 3] = fmaf(v[kw], ww.w, acc[4 * q + 3]);
                    }
                }
            }
        }
        __syncthreads();
    }

    const int oh = oh0 + ty, ow = ow0 + tx;
    if (oh < Ho && ow < Wo) {
        const long long HoWo = (long long)Ho * Wo;
        float* yp = y + ((long long)n * K) * HoWo + (long long)oh * Wo + ow;
        #pragma unroll
        for (int j = 0; j < KB; ++j) {
            int co = k0 + j;
            if (co < K) yp[(long long)co * HoWo] = acc[j] + __ldg(&b[co]);
        }
    }
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
    if (y.numel() == 0) return y;
    int KG = (K + KB - 1) / KB;
    TORCH_CHECK((long long)N * KG <= 65535, "grid.z too large");
    dim3 grid((Wo + TOW - 1) / TOW, (Ho + TOH - 1) / TOH, N * KG);
    conv2d_s2_regblk_kernel<<<grid, 256>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        N, C, H, W, K, Ho, Wo, KG);
    return y;
}
"""

my_mod = load_inline(
    name="conv2d_s2_cout_register_block_s45",
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
