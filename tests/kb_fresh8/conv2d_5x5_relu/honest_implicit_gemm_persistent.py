# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_relu_igemm(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad, int64_t stream_ptr);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <algorithm>

// Implicit GEMM: Y[oc][g] = relu(bias[oc] + sum_k Wt[oc][k] * X_patch[k][g]), g = (n, oh, ow) over the whole
// batch, k = (ci, kh, kw). The patch matrix is gathered on the fly (never materialised).
// Block tile 32 (oc) x 128 (pixels), BK = 16, 256 threads each computing 4 x 4 outputs.
// Shared tiles are double buffered with a register prefetch of the next K-slice; the grid is persistent
// (one wave of blocks striding over all output tiles).
#define BM 32
#define BN 128
#define BK 16
#define NT 256

template <int KT>
__global__ void __launch_bounds__(NT)
conv2d_relu_igemm_kernel(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ bias,
                         float* __restrict__ y, int Nimg, int Cin, int H, int W, int Cout, int OH, int OW,
                         int k_rt, int pad, int mTiles, long long nTiles) {
    __shared__ float As[2][BK][BM + 1];
    __shared__ float Bs[2][BK][BN];

    const int K = KT > 0 ? KT : k_rt;
    const int KK = K * K;
    const int tid = threadIdx.x;
    const int tx = tid & 31;        // pixel lane: pixels tx + 32*j
    const int ty = tid >> 5;        // warp id: channels ty + 8*i
    const int Kdim = Cin * KK;
    const long long OHW = (long long)OH * OW;
    const long long NP = (long long)Nimg * OHW;
    const int numK = (Kdim + BK - 1) / BK;
    const long long numTiles = (long long)mTiles * nTiles;

    const int bcol = tid & (BN - 1);   // gather column owned by this thread
    const int brow = tid >> 7;         // 0 or 1; rows brow + 2*l

    for (long long tile = blockIdx.x; tile < numTiles; tile += gridDim.x) {
        const int mt = (int)(tile % mTiles);
        const long long nt = tile / mTiles;
        const int m0 = mt * BM;
        const long long p0 = nt * BN;

        // decompose this thread's gather pixel once per tile
        const long long g = p0 + bcol;
        const bool gvalid = g < NP;
        int pn = 0, poh = 0, pw = 0;
        if (gvalid) {
            pn = (int)(g / OHW);
            const int pix = (int)(g - (long long)pn * OHW);
            poh = pix / OW;
            pw = pix - poh * OW;
        }
        const float* xbase = x + (long long)pn * Cin * H * W;
        const int ihb = poh - pad, iwb = pw - pad;

        float a_reg[2], b_reg[8];
        auto load_tiles = [&](int k0) {
#pragma unroll
            for (int l = 0; l < 2; ++l) {
                const int e = tid + l * NT;
                const int r = e / BK, c = e % BK;
                const int gm = m0 + r, gk = k0 + c;
                a_reg[l] = (gm < Cout && gk < Kdim) ? __ldg(w + (long long)gm * Kdim + gk) : 0.f;
            }
#pragma unroll
            for (int l = 0; l < 8; ++l) {
                const int gk = k0 + brow + 2 * l;
                float v = 0.f;
                if (gvalid && gk < Kdim) {
                    const int ci = gk / KK;
                    const int rem = gk - ci * KK;
                    const int kh = rem / K;
                    const int kw = rem - kh * K;
                    const int ih = ihb + kh, iw = iwb + kw;
                    if ((unsigned)ih < (unsigned)H && (unsigned)iw < (unsigned)W)
                        v = __ldg(xbase + ((long long)ci * H + ih) * W + iw);
                }
                b_reg[l] = v;
            }
        };
        auto store_tiles = [&](int buf) {
#pragma unroll
            for (int l = 0; l < 2; ++l) {
                const int e = tid + l * NT;
                As[buf][e % BK][e / BK] = a_reg[l];
            }
#pragma unroll
            for (int l = 0; l < 8; ++l) Bs[buf][brow + 2 * l][bcol] = b_reg[l];
        };

        float acc[4][4];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) acc[i][j] = 0.f;

        load_tiles(0);
        store_tiles(0);
        __syncthreads();
        for (int kt = 0; kt < numK; ++kt) {
            const int cur = kt & 1;
            const bool more = (kt + 1) < numK;
            if (more) load_tiles((kt + 1) * BK);   // global loads in flight while we compute
#pragma unroll
            for (int kk = 0; kk < BK; ++kk) {
                float a[4], bv[4];
#pragma unroll
                for (int i = 0; i < 4; ++i) a[i] = As[cur][kk][ty + 8 * i];
#pragma unroll
                for (int j = 0; j < 4; ++j) bv[j] = Bs[cur][kk][tx + 32 * j];
#pragma unroll
                for (int i = 0; i < 4; ++i)
#pragma unroll
                    for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], bv[j], acc[i][j]);
            }
            if (more) store_tiles(cur ^ 1);   // buffer cur^1 was last read before the previous barrier
            __syncthreads();
        }

        // epilogue: bias + ReLU, coalesced along pixels
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const long long gp = p0 + tx + 32 * j;
            if (gp >= NP) continue;
            const int n = (int)(gp / OHW);
            const long long pix = gp - (long long)n * OHW;
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const int oc = m0 + ty + 8 * i;
                if (oc < Cout)
                    y[((long long)n * Cout + oc) * OHW + pix] = fmaxf(acc[i][j] + __ldg(bias + oc), 0.f);
            }
        }
    }
}

template <int KT>
static void launch_igemm(const float* x, const float* w, const float* b, float* y, int N, int Cin, int H, int W,
                         int Cout, int OH, int OW, int K, int pad, cudaStream_t stream) {
    const int mTiles = (Cout + BM - 1) / BM;
    const long long nTiles = ((long long)N * OH * OW + BN - 1) / BN;
    const long long tiles = (long long)mTiles * nTiles;
    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, conv2d_relu_igemm_kernel<KT>, NT, 0);
    if (sms <= 0) sms = 80;
    if (per_sm <= 0) per_sm = 2;
    const int blocks = (int)std::min<long long>(tiles, (long long)sms * per_sm);
    conv2d_relu_igemm_kernel<KT><<<blocks, NT, 0, stream>>>(x, w, b, y, N, Cin, H, W, Cout, OH, OW, K, pad,
                                                            mTiles, nTiles);
}

torch::Tensor conv2d_relu_igemm(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "tensors must be CUDA");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "tensors must be float32");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "bad ranks");
    auto xc = x.contiguous();
    auto wc = w.contiguous();   // (Cout, Cin*K*K) row-major
    auto bc = b.contiguous();
    const int N = xc.size(0), Cin = xc.size(1), H = xc.size(2), W = xc.size(3);
    const int Cout = wc.size(0), K = wc.size(2);
    TORCH_CHECK(wc.size(1) == Cin && wc.size(3) == K, "weight shape mismatch");
    TORCH_CHECK(bc.numel() == Cout, "bias shape mismatch");
    const int OH = H + 2 * (int)pad - K + 1;
    const int OW = W + 2 * (int)pad - K + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "empty output");
    auto y = torch::empty({N, Cout, OH, OW}, xc.options());
    if (y.numel() == 0) return y;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    const float* xp = xc.data_ptr<float>();
    const float* wp = wc.data_ptr<float>();
    const float* bp = bc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    if (K == 5)      launch_igemm<5>(xp, wp, bp, yp, N, Cin, H, W, Cout, OH, OW, K, (int)pad, stream);
    else if (K == 3) launch_igemm<3>(xp, wp, bp, yp, N, Cin, H, W, Cout, OH, OW, K, (int)pad, stream);
    else             launch_igemm<0>(xp, wp, bp, yp, N, Cin, H, W, Cout, OH, OW, K, (int)pad, stream);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "conv2d_relu_igemm launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

ext = load_inline(
    name="conv2d_5x5_relu_implicit_gemm_persistent",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_relu_igemm"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return ext.conv2d_relu_igemm(x, self.conv.weight, self.conv.bias, self.conv.padding[0], stream)
