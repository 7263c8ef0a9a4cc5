# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: implicit GEMM with the ReLU + max-pool fused into the epilogue. GEMM view:
// M = conv pixels, N = output channels, K = Cin*9 (gathered on the fly, no im2col buffer).
// A block covers 2 pooled rows x 32 pooled columns (256 conv pixels, ordered window-major so that
// the 4 pixels of each 2x2 pooling window are adjacent) x 32 output channels, BK = 16.
// Each thread owns one pooling window x 8 channels (32 accumulators; float4 shared loads for both
// operands). The next K-slice is prefetched into registers while the current one is consumed from
// the other shared buffer (double buffering). Epilogue: max over the window, + bias, ReLU, store.

#define BK 16
#define PW_T 32                 // pooled columns per block
#define PH_T 2                  // pooled rows per block
#define NWIN (PW_T * PH_T)      // 64 pooling windows
#define BM (NWIN * 4)           // 256 conv pixels
#define BN 32                   // output channels per block
#define CO_T 8                  // output channels per thread
#define NT 256
#define B_PER_T ((BN * BK) / NT)   // 2

__global__ void __launch_bounds__(NT)
conv_relu_pool_igemm_kernel(const float* __restrict__ x, const float* __restrict__ w,
                            const float* __restrict__ bias, float* __restrict__ out,
                            int Cin, int H, int W, int Cout, int Hp, int Wp) {
    __shared__ __align__(16) float As[2][BK][BM];
    __shared__ __align__(16) float Bs[2][BK][BN];

    const int tid = threadIdx.x;
    const int coTiles = (Cout + BN - 1) / BN;
    const int n = blockIdx.z / coTiles;
    const int co0 = (blockIdx.z % coTiles) * BN;
    const int pw0 = blockIdx.x * PW_T, ph0 = blockIdx.y * PH_T;
    const int K = Cin * 9;
    const float* xn = x + (size_t)n * Cin * H * W;

    // gather role: thread tid owns GEMM row m = tid for all BK k's of a slice
    const int g_win = tid >> 2, g_q = tid & 3;
    const int g_oh = (ph0 + g_win / PW_T) * 2 + (g_q >> 1);
    const int g_ow = (pw0 + g_win % PW_T) * 2 + (g_q & 1);
    // weight role: channel b_n, k = b_k0, b_k0+1
    const int b_n = tid / (BK / B_PER_T);                 // 0..31
    const int b_k0 = (tid % (BK / B_PER_T)) * B_PER_T;    // 0,2,...,14
    const int b_co = co0 + b_n;

    // compute role
    const int win = tid % NWIN;       // pooling window (warp = 32 consecutive windows)
    const int cg = tid / NWIN;        // channel group 0..3

    float ra[BK], rb[B_PER_T];

    auto load_global = [&](int k0) {
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            int k = k0 + kk;
            float v = 0.f;
            if (k < K) {
                int ci = k / 9;
                int r = k - ci * 9;
                int kh = r / 3;
                int kw = r - kh * 3;
                int ih = g_oh - 1 + kh, iw = g_ow - 1 + kw;
                if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                    v = __ldg(xn + ((size_t)ci * H + ih) * W + iw);
            }
            ra[kk] = v;
        }
#pragma unroll
        for (int j = 0; j < B_PER_T; ++j) {
            int k = k0 + b_k0 + j;
            rb[j] = (b_co < Cout && k < K) ? __ldg(w + (size_t)b_co * K + k) : 0.f;
        }
    };
    auto store_shared = [&](int buf) {
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) As[buf][kk][tid] = ra[kk];
#pragma unroll
        for (int j = 0; j < B_PER_T; ++j) Bs[buf][b_k0 + j][b_n] = rb[j];
    };

    float acc[4][CO_T];
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
        for (int c = 0; c < CO_T; ++c) acc[q][c] = 0.f;

    const int numK = (K + BK - 1) / BK;
    load_global(0);
    store_shared(0);
    __syncthreads();

    for (int kt = 0; kt < numK; ++kt) {
        const int cur = kt & 1;
        if (kt + 1 < numK) load_global((kt + 1) * BK);
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float4 a = *reinterpret_cast<const float4*>(&As[cur][kk][win * 4]);
            float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][kk][cg * CO_T]);
            float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][kk][cg * CO_T + 4]);
            float av[4] = {a.x, a.y, a.z, a.w};
            float bv[CO_T] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int q = 0; q < 4; ++q)
#pragma unroll
                for (int c = 0; c < CO_T; ++c) acc[q][c] += av[q] * bv[c];
        }
        if (kt + 1 < numK) store_shared(cur ^ 1);
        __syncthreads();
    }

    const int ph = ph0 + win / PW_T, pw = pw0 + win % PW_T;
    if (ph < Hp && pw < Wp) {
#pragma unroll
        for (int c = 0; c < CO_T; ++c) {
            int co = co0 + cg * CO_T + c;
            if (co >= Cout) continue;
            float m = fmaxf(fmaxf(acc[0][c], acc[1][c]), fmaxf(acc[2][c], acc[3][c])) + __ldg(bias + co);
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
    int coTiles = (Cout + BN - 1) / BN;
    dim3 grid((Wp + PW_T - 1) / PW_T, (Hp + PH_T - 1) / PH_T, N * coTiles);
    conv_relu_pool_igemm_kernel<<<grid, NT>>>(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(),
                                              out.data_ptr<float>(), Cin, H, W, Cout, Hp, Wp);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_conv_relu_maxpool_implicit_gemm_fused",
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
