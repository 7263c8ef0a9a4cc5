# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: layout change + channel-vectorised fused kernel. Kernel 1 transposes the input from
// NCHW to NHWC (32x33 shared-memory tile transpose), padding the channel count to a multiple of 4
// with zeros. Kernel 2 computes one pooled output for 8 output channels per thread: for every group
// of 4 input channels it pulls the 4x4 input patch as 16 float4 loads (one per pixel), keeps it in
// registers and applies the filter slice held in shared memory as [tap][ci][co] (two broadcast
// float4 loads per tap/ci), then does max + bias + ReLU in registers.

#define CO_T 8
#define NT2 128

__global__ void nchw_to_nhwc_kernel(const float* __restrict__ x, float* __restrict__ xh,
                                    int C, int CP, int HW) {
    __shared__ float tile[32][33];
    const int n = blockIdx.z;
    const int hw0 = blockIdx.x * 32, c0 = blockIdx.y * 32;
    const float* xn = x + (size_t)n * C * HW;
    float* on = xh + (size_t)n * HW * CP;
    for (int j = threadIdx.y; j < 32; j += blockDim.y) {
        int c = c0 + j, hw = hw0 + threadIdx.x;
        float v = 0.f;
        if (c < C && hw < HW) v = __ldg(xn + (size_t)c * HW + hw);
        tile[j][threadIdx.x] = v;
    }
    __syncthreads();
    for (int j = threadIdx.y; j < 32; j += blockDim.y) {
        int hw = hw0 + j, c = c0 + threadIdx.x;
        if (c < CP && hw < HW) on[(size_t)hw * CP + c] = tile[threadIdx.x][j];   // c >= C gets the zero
    }
}

__device__ __forceinline__ float f4get(const float4& a, int j) {
    return j == 0 ? a.x : (j == 1 ? a.y : (j == 2 ? a.z : a.w));
}

__global__ void __launch_bounds__(NT2)
conv_relu_pool_nhwc_kernel(const float* __restrict__ xh, const float* __restrict__ w,
                           const float* __restrict__ b, float* __restrict__ out,
                           int Cin, int CP, int H, int W, int Cout, int Hp, int Wp) {
    extern __shared__ __align__(16) float ws[];   // [9][CP][CO_T]
    const int co0 = blockIdx.y * CO_T;
    const int n = blockIdx.z;
    const int wtotal = 9 * CP * CO_T;
    for (int i = threadIdx.x; i < wtotal; i += NT2) {
        int co = i % CO_T;
        int r = i / CO_T;
        int ci = r % CP;
        int k = r / CP;
        ws[i] = (ci < Cin && co0 + co < Cout) ? __ldg(w + ((size_t)(co0 + co) * Cin + ci) * 9 + k) : 0.f;
    }
    __syncthreads();

    const int p = blockIdx.x * NT2 + threadIdx.x;
    if (p >= Hp * Wp) return;
    const int ph = p / Wp, pw = p - (p / Wp) * Wp;
    const int r0 = ph * 2 - 1, c0 = pw * 2 - 1;
    const float* xn = xh + (size_t)n * H * W * CP;

    bool ok[4][4];
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int s = 0; s < 4; ++s)
            ok[r][s] = (r0 + r >= 0) && (r0 + r < H) && (c0 + s >= 0) && (c0 + s < W);

    float acc[4][CO_T];
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
        for (int c = 0; c < CO_T; ++c) acc[q][c] = 0.f;

    for (int ci0 = 0; ci0 < CP; ci0 += 4) {
        float4 v[4][4];
#pragma unroll
        for (int r = 0; r < 4; ++r)
#pragma unroll
            for (int s = 0; s < 4; ++s)
                v[r][s] = ok[r][s]
                    ? __ldg(reinterpret_cast<const float4*>(xn + ((size_t)(r0 + r) * W + (c0 + s)) * CP + ci0))
                    : make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
        for (int j = 0; j < 4; ++j) {
#pragma unroll
            for (int kh = 0; kh < 3; ++kh) {
#pragma unroll
                for (int kw = 0; kw < 3; ++kw) {
                    const float4* wp = reinterpret_cast<const float4*>(ws + ((kh * 3 + kw) * CP + ci0 + j) * CO_T);
                    float4 w0 = wp[0], w1 = wp[1];
                    float wv[CO_T] = {w0.x, w0.y, w0.z, w0.w, w1.x, w1.y, w1.z, w1.w};
#pragma unroll
                    for (int dy = 0; dy < 2; ++dy)
#pragma unroll
                        for (int dx = 0; dx < 2; ++dx) {
                            float xv = f4get(v[kh + dy][kw + dx], j);
#pragma unroll
                            for (int c = 0; c < CO_T; ++c) acc[dy * 2 + dx][c] += xv * wv[c];
                        }
                }
            }
        }
    }

#pragma unroll
    for (int c = 0; c < CO_T; ++c) {
        int co = co0 + c;
        if (co >= Cout) continue;
        float m = fmaxf(fmaxf(acc[0][c], acc[1][c]), fmaxf(acc[2][c], acc[3][c])) + __ldg(b + co);
        out[(((size_t)n * Cout + co) * Hp + ph) * Wp + pw] = fmaxf(m, 0.f);
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
    const int CP = (Cin + 3) / 4 * 4;
    const int HW = H * W;
    size_t smem = (size_t)9 * CP * CO_T * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "too many input channels for the shared filter slice");
    auto xh = torch::empty({N, H, W, CP}, xc.options());

    dim3 tblock(32, 8);
    dim3 tgrid((HW + 31) / 32, (CP + 31) / 32, N);
    nchw_to_nhwc_kernel<<<tgrid, tblock>>>(xc.data_ptr<float>(), xh.data_ptr<float>(), Cin, CP, HW);

    dim3 grid((Hp * Wp + NT2 - 1) / NT2, (Cout + CO_T - 1) / CO_T, N);
    conv_relu_pool_nhwc_kernel<<<grid, NT2, smem>>>(xh.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(),
                                                   out.data_ptr<float>(), Cin, CP, H, W, Cout, Hp, Wp);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_conv_relu_maxpool_nhwc_vec4",
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
