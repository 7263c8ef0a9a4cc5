# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: fused shared-memory tiled kernel. A 16x16 thread block owns a 16x16 tile of pooled
// outputs (a 32x32 conv tile, 34x34 haloed input tile) for 8 output channels. Input channels are
// processed in chunks of 4: the haloed tiles and the matching filter slice ([ci][tap][co]) are
// staged in shared memory, then each thread reads its 4x4 input patch with float2 loads and
// accumulates the 2x2 conv window for 8 channels (32 accumulators). Epilogue: max, bias, ReLU.

#define PT 16                 // pooled tile edge (= threads per dim)
#define CT (2 * PT)           // conv tile edge: 32
#define IT (CT + 2)           // input tile edge: 34
#define XS 36                 // padded row stride (even, float2-aligned)
#define CO_T 8
#define CI_T 4

__global__ void __launch_bounds__(PT * PT)
conv_relu_pool_tile_kernel(const float* __restrict__ x, const float* __restrict__ w,
                           const float* __restrict__ b, float* __restrict__ out,
                           int Cin, int H, int W, int Cout, int Hp, int Wp) {
    __shared__ __align__(16) float xs[CI_T * IT * XS];
    __shared__ __align__(16) float ws[CI_T * 9 * CO_T];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * PT + tx;
    const int ngroups = (Cout + CO_T - 1) / CO_T;
    const int n = blockIdx.z / ngroups;
    const int co0 = (blockIdx.z % ngroups) * CO_T;
    const int pw0 = blockIdx.x * PT, ph0 = blockIdx.y * PT;
    const int ih0 = ph0 * 2 - 1, iw0 = pw0 * 2 - 1;   // input origin of the tile
    const float* xn = x + (size_t)n * Cin * H * W;

    float acc[CO_T][4];
#pragma unroll
    for (int c = 0; c < CO_T; ++c)
#pragma unroll
        for (int q = 0; q < 4; ++q) acc[c][q] = 0.f;

    for (int ci0 = 0; ci0 < Cin; ci0 += CI_T) {
        for (int i = tid; i < CI_T * IT * XS; i += PT * PT) {
            int c = i / (IT * XS);
            int r = i - c * (IT * XS);
            int yy = r / XS, xx = r - yy * XS;
            int ci = ci0 + c, ih = ih0 + yy, iw = iw0 + xx;
            float v = 0.f;
            if (xx < IT && ci < Cin && ih >= 0 && ih < H && iw >= 0 && iw < W)
                v = __ldg(xn + ((size_t)ci * H + ih) * W + iw);
            xs[i] = v;
        }
        for (int i = tid; i < CI_T * 9 * CO_T; i += PT * PT) {
            int co = i % CO_T;
            int r = i / CO_T;
            int k = r % 9;
            int c = r / 9;
            int ci = ci0 + c, cog = co0 + co;
            ws[i] = (ci < Cin && cog < Cout) ? __ldg(w + ((size_t)cog * Cin + ci) * 9 + k) : 0.f;
        }
        __syncthreads();

#pragma unroll 1
        for (int c = 0; c < CI_T; ++c) {
            float v[4][4];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const float* row = xs + (c * IT + 2 * ty + i) * XS + 2 * tx;
                float2 p0 = *reinterpret_cast<const float2*>(row);
                float2 p1 = *reinterpret_cast<const float2*>(row + 2);
                v[i][0] = p0.x; v[i][1] = p0.y; v[i][2] = p1.x; v[i][3] = p1.y;
            }
#pragma unroll
            for (int kh = 0; kh < 3; ++kh) {
#pragma unroll
                for (int kw = 0; kw < 3; ++kw) {
                    const float4* wp = reinterpret_cast<const float4*>(ws + (c * 9 + kh * 3 + kw) * CO_T);
                    float4 w0 = wp[0], w1 = wp[1];
                    float wv[CO_T] = {w0.x, w0.y, w0.z, w0.w, w1.x, w1.y, w1.z, w1.w};
#pragma unroll
                    for (int co = 0; co < CO_T; ++co) {
                        acc[co][0] += v[kh][kw] * wv[co];
                        acc[co][1] += v[kh][kw + 1] * wv[co];
                        acc[co][2] += v[kh + 1][kw] * wv[co];
                        acc[co][3] += v[kh + 1][kw + 1] * wv[co];
                    }
                }
            }
        }
        __syncthreads();
    }

    const int ph = ph0 + ty, pw = pw0 + tx;
    if (ph < Hp && pw < Wp) {
#pragma unroll
        for (int c = 0; c < CO_T; ++c) {
            int co = co0 + c;
            if (co >= Cout) continue;
            float m = fmaxf(fmaxf(acc[c][0], acc[c][1]), fmaxf(acc[c][2], acc[c][3])) + __ldg(b + co);
            out[(((size_t)n * Cout + co) * Hp + ph) * Wp + pw] = fmaxf(m, 0.f);
        }
    }
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
    int Hp = H / 2, Wp = W / 2;
    auto out = torch::empty({N, Cout, Hp, Wp}, xc.options());
    if (out.numel() == 0) return out;
    int ngroups = (Cout + CO_T - 1) / CO_T;
    dim3 block(PT, PT);
    dim3 grid((Wp + PT - 1) / PT, (Hp + PT - 1) / PT, N * ngroups);
    conv_relu_pool_tile_kernel<<<grid, block>>>(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(),
                                                out.data_ptr<float>(), Cin, H, W, Cout, Hp, Wp);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_conv_relu_maxpool_smem_tile_co8",
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
