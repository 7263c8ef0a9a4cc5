# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_dil_igemm_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: implicit GEMM. Out[P x Cout] = Im2col[P x K] * W^T[K x Cout] with P = N*H*W and
// K = Cin*9, where the im2col matrix is never materialised: each K-slice of the A tile is
// gathered on the fly (with zero padding) into shared memory. Block tile BM x BN, each thread
// a 4x4 register micro-tile read with float4 shared loads; the next K-slice is prefetched into
// registers while the current one is multiplied. Bias is fused into the epilogue.

#define KS 3
#define DIL 2
#define PAD 2
#define BM 128
#define BN 32
#define BK 16
#define NT 256
#define A_PER_T (BM * BK / NT)   // 8
#define B_PER_T (BN * BK / NT)   // 2

__global__ void __launch_bounds__(NT)
conv2d_dil_igemm_kernel(const float* __restrict__ x, const float* __restrict__ w,
                        const float* __restrict__ b, float* __restrict__ y,
                        int Cin, int Cout, int H, int W, long long P) {
    __shared__ __align__(16) float sA[BK][BM];
    __shared__ __align__(16) float sB[BK][BN];

    const int tid = threadIdx.x;
    const long long m0 = (long long)blockIdx.x * BM;
    const int n0 = blockIdx.y * BN;
    const int HW = H * W;
    const int K = Cin * KS * KS;

    // ---- A-gather role: fixed pixel per thread, rows kk = ak0 + 2*i ----
    const int am = tid % BM;
    const int ak0 = tid / BM;        // 0 or 1
    const long long pa = m0 + am;
    const bool pa_ok = pa < P;
    int a_oh = 0, a_ow = 0;
    const float* a_base = x;
    if (pa_ok) {
        long long nimg = pa / HW;
        int rem = (int)(pa - nimg * HW);
        a_oh = rem / W;
        a_ow = rem - a_oh * W;
        a_base = x + nimg * (long long)Cin * HW;
    }

    float ra[A_PER_T];
    float rb[B_PER_T];

    auto load_tile = [&](int k0) {
#pragma unroll
        for (int i = 0; i < A_PER_T; ++i) {
            int k = k0 + ak0 + 2 * i;
            float v = 0.f;
            if (pa_ok && k < K) {
                int ci = k / (KS * KS);
                int r = k - ci * (KS * KS);
                int kh = r / KS, kw = r - kh * KS;
                int ih = a_oh - PAD + kh * DIL;
                int iw = a_ow - PAD + kw * DIL;
                if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                    v = __ldg(a_base + (long long)ci * HW + ih * W + iw);
            }
            ra[i] = v;
        }
#pragma unroll
        for (int i = 0; i < B_PER_T; ++i) {
            int e = tid + i * NT;
            int bn = e % BN, bk = e / BN;
            int co = n0 + bn, k = k0 + bk;
            rb[i] = (co < Cout && k < K) ? __ldg(w + (long long)co * K + k) : 0.f;
        }
    };

    // ---- compute role: 4 pixels x 4 output channels ----
    const int tm = tid % (BM / 4);   // 0..31
    const int tn = tid / (BM / 4);   // 0..7
    float acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.f;

    load_tile(0);
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int i = 0; i < A_PER_T; ++i) sA[ak0 + 2 * i][am] = ra[i];
#pragma unroll
        for (int i = 0; i < B_PER_T; ++i) {
            int e = tid + i * NT;
            sB[e / BN][e % BN] = rb[i];
        }
        __syncthreads();
        if (k0 + BK < K) load_tile(k0 + BK);   // prefetch next slice into registers
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float4 a4 = *reinterpret_cast<const float4*>(&sA[kk][tm * 4]);
            float4 b4 = *reinterpret_cast<const float4*>(&sB[kk][tn * 4]);
            float av[4] = {a4.x, a4.y, a4.z, a4.w};
            float bv[4] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }

    // ---- epilogue: add bias, scatter back to NCHW ----
    const long long pb = m0 + tm * 4;
    const bool vec_ok = (HW % 4 == 0) && (pb + 3 < P);   // 4 pixels in one image, 16B aligned
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        int co = n0 + tn * 4 + j;
        if (co >= Cout) continue;
        float bias = __ldg(b + co);
        if (vec_ok) {
            long long nimg = pb / HW;
            int rem = (int)(pb - nimg * HW);
            float4 o = make_float4(acc[0][j] + bias, acc[1][j] + bias, acc[2][j] + bias, acc[3][j] + bias);
            *reinterpret_cast<float4*>(y + (nimg * Cout + co) * (long long)HW + rem) = o;
        } else {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                long long p = pb + i;
                if (p >= P) break;
                long long nimg = p / HW;
                int rem = (int)(p - nimg * HW);
                y[(nimg * Cout + co) * (long long)HW + rem] = acc[i][j] + bias;
            }
        }
    }
}

torch::Tensor conv2d_dil_igemm_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
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
    long long P = (long long)N * H * W;
    dim3 grid((unsigned)((P + BM - 1) / BM), (Cout + BN - 1) / BN);
    conv2d_dil_igemm_kernel<<<grid, NT>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        Cin, Cout, H, W, P);
    return y;
}
"""

conv_mod = load_inline(
    name="kbf12_conv2d_dil_implicit_gemm",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_dil_igemm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=2, dilation=2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_mod.conv2d_dil_igemm_cuda(x, self.conv.weight, self.conv.bias)
