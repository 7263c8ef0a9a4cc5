# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: fused conv+bias+ReLU+maxpool, one thread per pooled output, filters and bias in
// __constant__ memory (copied device-to-device each call; the output channel is uniform per block,
// so every constant read is a warp-wide broadcast). Per input channel the thread loads the 4x4 input
// patch covering its 2x2 pooling window into registers once and computes all four conv outputs
// from it (16 loads instead of 36). Falls back to reading filters from global memory when they
// do not fit the constant bank.

#define MAX_CW 12288   // floats of filter that fit in the constant bank we reserve (48 KB)
#define MAX_CB 1024

__constant__ float c_w[MAX_CW];
__constant__ float c_b[MAX_CB];

template <bool USE_CONST>
__global__ void __launch_bounds__(256)
conv_relu_pool_const_kernel(const float* __restrict__ x, const float* __restrict__ gw,
                            const float* __restrict__ gb, float* __restrict__ out,
                            int Cin, int H, int W, int Cout, int Hp, int Wp) {
    const int co = blockIdx.y;
    const int n = blockIdx.z;
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= Hp * Wp) return;
    const int ph = p / Wp;
    const int pw = p - ph * Wp;
    const int r0 = ph * 2 - 1;     // first input row of the 4x4 patch
    const int c0 = pw * 2 - 1;     // first input column

    bool rok[4], cok[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        rok[i] = (r0 + i >= 0) && (r0 + i < H);
        cok[i] = (c0 + i >= 0) && (c0 + i < W);
    }

    float a00 = 0.f, a01 = 0.f, a10 = 0.f, a11 = 0.f;
    const float* xn = x + (size_t)n * Cin * H * W;
    for (int ci = 0; ci < Cin; ++ci) {
        const float* xc = xn + (size_t)ci * H * W;
        float v[4][4];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j)
                v[i][j] = (rok[i] && cok[j]) ? __ldg(xc + (size_t)(r0 + i) * W + (c0 + j)) : 0.f;
        const int wbase = (co * Cin + ci) * 9;
#pragma unroll
        for (int kh = 0; kh < 3; ++kh) {
#pragma unroll
            for (int kw = 0; kw < 3; ++kw) {
                float wv = USE_CONST ? c_w[wbase + kh * 3 + kw] : __ldg(gw + wbase + kh * 3 + kw);
                a00 += v[kh][kw] * wv;
                a01 += v[kh][kw + 1] * wv;
                a10 += v[kh + 1][kw] * wv;
                a11 += v[kh + 1][kw + 1] * wv;
            }
        }
    }
    float bias = USE_CONST ? c_b[co] : __ldg(gb + co);
    float m = fmaxf(fmaxf(a00, a01), fmaxf(a10, a11)) + bias;
    out[(((size_t)n * Cout + co) * Hp + ph) * Wp + pw] = fmaxf(m, 0.f);
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
    const int threads = 256;
    dim3 grid((Hp * Wp + threads - 1) / threads, Cout, N);
    long long wcount = (long long)Cout * Cin * 9;
    if (wcount <= MAX_CW && Cout <= MAX_CB) {
        cudaMemcpyToSymbolAsync(c_w, wc.data_ptr<float>(), wcount * sizeof(float), 0, cudaMemcpyDeviceToDevice, 0);
        cudaMemcpyToSymbolAsync(c_b, bc.data_ptr<float>(), Cout * sizeof(float), 0, cudaMemcpyDeviceToDevice, 0);
        conv_relu_pool_const_kernel<true><<<grid, threads>>>(
            xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(),
            Cin, H, W, Cout, Hp, Wp);
    } else {
        conv_relu_pool_const_kernel<false><<<grid, threads>>>(
            xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(),
            Cin, H, W, Cout, Hp, Wp);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_conv_relu_maxpool_const_weights_patch",
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
