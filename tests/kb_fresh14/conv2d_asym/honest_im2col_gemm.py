# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, int64_t pad_h, int64_t pad_w);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: explicit im2col + GEMM, one image at a time. Kernel 1 unfolds the image into a
// column matrix col[K = Cin*KH*KW][P = Ho*Wo]; kernel 2 is a classic shared-memory tiled SGEMM
// (64x64 block tile, BK = 16, 4x4 register micro-tile per thread) computing
// Y[n] (Cout x P) = Wmat (Cout x K) * col (K x P). The column buffer is reused across images.

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

__global__ void im2col_kernel(const float* __restrict__ xn, float* __restrict__ col,
                              int Cin, int H, int W, int Ho, int Wo, int KH, int KW, int PH, int PW) {
    const int P = Ho * Wo;
    const long long total = (long long)Cin * KH * KW * P;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        int p = (int)(idx % P);
        int k = (int)(idx / P);
        int kw = k % KW;
        int t = k / KW;
        int kh = t % KH;
        int ci = t / KH;
        int oh = p / Wo, ow = p - (p / Wo) * Wo;
        int ih = oh - PH + kh, iw = ow - PW + kw;
        float v = 0.f;
        if (ih >= 0 && ih < H && iw >= 0 && iw < W) v = __ldg(xn + ((size_t)ci * H + ih) * W + iw);
        col[idx] = v;
    }
}

// C[M x Ncols] = A[M x K] * B[K x Ncols], all row-major.
__global__ void __launch_bounds__(256)
sgemm_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                   int M, int Ncols, int K) {
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int tx = tid % (BN / TN);   // 0..15 -> columns
    const int ty = tid / (BN / TN);   // 0..15 -> rows
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        // A tile: BM x BK, stored transposed As[k][m]
#pragma unroll
        for (int l = 0; l < (BM * BK) / 256; ++l) {
            int i = tid + l * 256;
            int m = i / BK, kk = i % BK;
            int gr = row0 + m, gk = k0 + kk;
            As[kk][m] = (gr < M && gk < K) ? __ldg(A + (size_t)gr * K + gk) : 0.f;
        }
        // B tile: BK x BN
#pragma unroll
        for (int l = 0; l < (BK * BN) / 256; ++l) {
            int i = tid + l * 256;
            int kk = i / BN, nn = i % BN;
            int gk = k0 + kk, gc = col0 + nn;
            Bs[kk][nn] = (gk < K && gc < Ncols) ? B[(size_t)gk * Ncols + gc] : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[kk][ty * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = Bs[kk][tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        int gr = row0 + ty * TM + i;
        if (gr >= M) continue;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            int gc = col0 + tx * TN + j;
            if (gc < Ncols) C[(size_t)gr * Ncols + gc] = acc[i][j];
        }
    }
}

torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, int64_t pad_h, int64_t pad_w) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "4-D tensors expected");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    int N = xc.size(0), Cin = xc.size(1), H = xc.size(2), W = xc.size(3);
    int Cout = wc.size(0), KH = wc.size(2), KW = wc.size(3);
    TORCH_CHECK(wc.size(1) == Cin, "channel mismatch");
    int PH = (int)pad_h, PW = (int)pad_w;
    int Ho = H + 2 * PH - KH + 1;
    int Wo = W + 2 * PW - KW + 1;
    TORCH_CHECK(Ho > 0 && Wo > 0, "bad output size");
    auto out = torch::empty({N, Cout, Ho, Wo}, xc.options());
    if (out.numel() == 0) return out;
    const int K = Cin * KH * KW;
    const int P = Ho * Wo;
    auto col = torch::empty({K, P}, xc.options());

    const float* xp = xc.data_ptr<float>();
    const float* wp = wc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    float* cp = col.data_ptr<float>();

    long long colTotal = (long long)K * P;
    int threads = 256;
    long long b = (colTotal + threads - 1) / threads;
    int icBlocks = (int)(b < 65535LL * 8 ? b : 65535LL * 8);
    dim3 ggrid((P + BN - 1) / BN, (Cout + BM - 1) / BM);
    for (int n = 0; n < N; ++n) {
        im2col_kernel<<<icBlocks, threads>>>(xp + (size_t)n * Cin * H * W, cp, Cin, H, W, Ho, Wo, KH, KW, PH, PW);
        sgemm_tiled_kernel<<<ggrid, 256>>>(wp, cp, yp + (size_t)n * Cout * P, Cout, P, K);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_conv2d_asym_im2col_gemm",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, (3, 7), padding=(1, 3), bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x, self.conv.weight, self.conv.padding[0], self.conv.padding[1])
