# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor min_sq_dist_cuda(torch::Tensor points, torch::Tensor centroids);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>
// Strategy: treat the problem as a GEMM (points x centroids^T) with a fused min epilogue, using the
// expansion ||x||^2 - 2 x.c + ||c||^2. A 256-thread block owns 128 points (whole feature vectors,
// d <= 32, kept transposed in padded shared memory for the block's lifetime) and sweeps all centroids in
// 64-wide tiles. Each thread computes an 8x4 (points x centroids) register tile from float4 shared
// loads, folds it into per-point running minima, and the 16 threads sharing a point row finish with a
// __shfl_xor_sync min-reduction. Shared-memory stores use a bank-conflict-free (8 dims x 4 rows) warp
// mapping. Generic fallback kernel for d > 32.

#define BM 128
#define BN 64
#define DK 32
#define TM 8
#define TN 4
#define XS_LD (BM + 4)
#define CS_LD (BN + 4)

__global__ void __launch_bounds__(256, 2)
min_sq_dist_gemm_kernel(const float* __restrict__ P,
                        const float* __restrict__ C,
                        float* __restrict__ out,
                        int64_t n, int k, int d) {
    __shared__ __align__(16) float Xs[DK * XS_LD];   // Xs[kk][point]
    __shared__ __align__(16) float Cs[DK * CS_LD];   // Cs[kk][centroid]
    __shared__ float cn[BN];

    const int tid = threadIdx.x;
    const int tx = tid & 15;          // centroid group: centroids tx*TN .. +TN-1 of the tile
    const int ty = tid >> 4;          // point group: points ty*TM .. +TM-1 of the block
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int kk_lo = lane & 7;
    const int r_lo = lane >> 3;
    const int64_t p0 = (int64_t)blockIdx.x * BM;

    // Point tile: 128 points x 32 dims, 16 elements per thread. A warp covers 4 rows x 8 dims per step:
    // 32-byte global segments, and (4 * kk + row) mod 32 spreads the transposed stores over all banks.
#pragma unroll
    for (int it = 0; it < (BM * DK) / 256; ++it) {
        const int combo = it * 8 + warp;                 // 0 .. 127
        const int kk = (combo & 3) * 8 + kk_lo;          // 0 .. 31
        const int r = (combo >> 2) * 4 + r_lo;           // 0 .. 127
        const int64_t gp = p0 + r;
        float v = 0.0f;
        if (gp < n && kk < d) v = __ldg(P + gp * d + kk);
        Xs[kk * XS_LD + r] = v;
    }
    __syncthreads();

    float best[TM];
#pragma unroll
    for (int i = 0; i < TM; ++i) best[i] = FLT_MAX;     // min over c of (||c||^2 - 2 x.c)

    for (int ct = 0; ct < k; ct += BN) {
        // Centroid tile: 64 centroids x 32 dims, 8 elements per thread, same conflict-free mapping.
#pragma unroll
        for (int it = 0; it < (BN * DK) / 256; ++it) {
            const int combo = it * 8 + warp;             // 0 .. 63
            const int kk = (combo & 3) * 8 + kk_lo;
            const int j = (combo >> 2) * 4 + r_lo;       // 0 .. 63
            const int gj = ct + j;
            float v = 0.0f;
            if (gj < k && kk < d) v = __ldg(C + (int64_t)gj * d + kk);
            Cs[kk * CS_LD + j] = v;
        }
        __syncthreads();
        if (tid < BN) {
            float s = 0.0f;
#pragma unroll
            for (int kk = 0; kk < DK; ++kk) { float c = Cs[kk * CS_LD + tid]; s = fmaf(c, c, s); }
            cn[tid] = s;
        }

        float acc[TM][TN];
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

#pragma unroll
        for (int kk = 0; kk < DK; ++kk) {
            const float4 a0 = *reinterpret_cast<const float4*>(&Xs[kk * XS_LD + ty * TM]);
            const float4 a1 = *reinterpret_cast<const float4*>(&Xs[kk * XS_LD + ty * TM + 4]);
            const float4 b = *reinterpret_cast<const float4*>(&Cs[kk * CS_LD + tx * TN]);
            const float a[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float bb[TN] = {b.x, b.y, b.z, b.w};
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], bb[j], acc[i][j]);
        }
        __syncthreads();   // cn[] complete; also all reads of Cs done before the next tile load

#pragma unroll
        for (int j = 0; j < TN; ++j) {
            if (ct + tx * TN + j < k) {
                const float cj = cn[tx * TN + j];
#pragma unroll
                for (int i = 0; i < TM; ++i) best[i] = fminf(best[i], fmaf(-2.0f, acc[i][j], cj));
            }
        }
        __syncthreads();   // cn[] is rewritten by the next tile
    }

    // Min across the 16 threads (one half-warp, same ty) that share these TM points.
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        float v = best[i];
        v = fminf(v, __shfl_xor_sync(0xffffffffu, v, 8));
        v = fminf(v, __shfl_xor_sync(0xffffffffu, v, 4));
        v = fminf(v, __shfl_xor_sync(0xffffffffu, v, 2));
        v = fminf(v, __shfl_xor_sync(0xffffffffu, v, 1));
        best[i] = v;
    }
    float mine = 0.0f;
#pragma unroll
    for (int i = 0; i < TM; ++i) if (tx == i) mine = best[i];
    if (tx < TM) {
        const int r = ty * TM + tx;
        const int64_t gp = p0 + r;
        if (gp < n) {
            float xn = 0.0f;
#pragma unroll
            for (int kk = 0; kk < DK; ++kk) { float x = Xs[kk * XS_LD + r]; xn = fmaf(x, x, xn); }
            out[gp] = fmaxf(xn + mine, 0.0f);
        }
    }
}

// Fallback for d > 32: one thread per point, centroids streamed through shared memory.
#define FB_FLOATS 8192
__global__ void min_sq_dist_fallback_kernel(const float* __restrict__ P,
                                            const float* __restrict__ C,
                                            float* __restrict__ out,
                                            int64_t n, int k, int d) {
    __shared__ float sC[FB_FLOATS];
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = i < n;
    const float* p = P + (valid ? i : 0) * d;
    const int chunk = d <= FB_FLOATS ? FB_FLOATS / d : 0;
    float best = FLT_MAX;
    if (chunk > 0) {
        for (int jc = 0; jc < k; jc += chunk) {
            const int cnt = min(chunk, k - jc);
            const int nel = cnt * d;
            for (int e = threadIdx.x; e < nel; e += blockDim.x) sC[e] = __ldg(C + (int64_t)jc * d + e);
            __syncthreads();
            if (valid) {
                for (int jj = 0; jj < cnt; ++jj) {
                    float s = 0.0f;
                    for (int t = 0; t < d; ++t) { float diff = __ldg(p + t) - sC[jj * d + t]; s = fmaf(diff, diff, s); }
                    best = fminf(best, s);
                }
            }
            __syncthreads();
        }
    } else if (valid) {
        for (int j = 0; j < k; ++j) {
            float s = 0.0f;
            for (int t = 0; t < d; ++t) { float diff = __ldg(p + t) - __ldg(C + (int64_t)j * d + t); s = fmaf(diff, diff, s); }
            best = fminf(best, s);
        }
    }
    if (valid) out[i] = best;
}

torch::Tensor min_sq_dist_cuda(torch::Tensor points, torch::Tensor centroids) {
    TORCH_CHECK(points.is_cuda() && centroids.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(points.scalar_type() == torch::kFloat32 && centroids.scalar_type() == torch::kFloat32, "float32 expected");
    TORCH_CHECK(points.dim() == 2 && centroids.dim() == 2 && points.size(1) == centroids.size(1), "shape mismatch");
    auto P = points.contiguous();
    auto C = centroids.contiguous();
    int64_t n = P.size(0);
    int k = (int)C.size(0);
    int d = (int)P.size(1);
    auto out = torch::empty({n}, P.options());
    if (n == 0) return out;
    if (d <= DK) {
        unsigned int blocks = (unsigned int)((n + BM - 1) / BM);
        min_sq_dist_gemm_kernel<<<blocks, 256>>>(P.data_ptr<float>(), C.data_ptr<float>(), out.data_ptr<float>(), n, k, d);
    } else {
        const int threads = 256;
        unsigned int blocks = (unsigned int)((n + threads - 1) / threads);
        min_sq_dist_fallback_kernel<<<blocks, threads>>>(P.data_ptr<float>(), C.data_ptr<float>(), out.data_ptr<float>(), n, k, d);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_min_sq_dist_regblock_tiled_gemm_min",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["min_sq_dist_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, points: torch.Tensor, centroids: torch.Tensor) -> torch.Tensor:
        return my_mod.min_sq_dist_cuda(points, centroids)
