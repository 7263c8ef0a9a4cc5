# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor integral_image_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Reduce-then-scan over horizontal bands of RB rows:
//  1) per band, column sums of x (coalesced, one thread per column);
//  2) per column, exclusive scan of the band sums down the image -> column carry entering each band;
//  3) one 256-thread block per band: the carry vector is processed as a virtual row -1, then every row is
//     block-scanned (float4 per thread + warp shuffles + one barrier with double-buffered warp totals)
//     and accumulated into per-thread running column sums, with the next row prefetched into registers.
// Per-row left-of-chunk carries live in shared memory so rows wider than one chunk are handled too.

#define RB 32
#define NTH 256
#define NWARP (NTH / 32)
#define FULL 0xffffffffu

__global__ void ii_band_colsum_kernel(const float* __restrict__ x, float* __restrict__ bsum,
                                      int H, int W, int nb, long long nbt) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= W) return;
    for (long long bb = blockIdx.y; bb < nbt; bb += gridDim.y) {
        const long long b = bb / nb;
        const int band = (int)(bb - b * nb);
        const int r0 = band * RB;
        const int r1 = min(r0 + RB, H);
        const float* p = x + (b * H + r0) * (long long)W + j;
        float s = 0.f;
        #pragma unroll 8
        for (int i = r0; i < r1; ++i) { s += __ldg(p); p += W; }
        bsum[bb * W + j] = s;
    }
}

__global__ void ii_band_carry_kernel(float* __restrict__ bsum, long long ncols, int W, int nb) {
    const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= ncols) return;
    const long long b = c / W;
    const int j = (int)(c - b * W);
    float* p = bsum + b * (long long)nb * W + j;
    float run = 0.f;
    for (int k = 0; k < nb; ++k) {
        const float v = p[(long long)k * W];
        p[(long long)k * W] = run;
        run += v;
    }
}

template <int E>
__device__ __forceinline__ void load_vals(const float* __restrict__ src, int j0, int W, float (&v)[E]) {
    if (E == 4) {
        if (j0 < W) {   // W % 4 == 0 on this path, so j0 + 3 < W as well
            const float4 a = __ldg(reinterpret_cast<const float4*>(src + j0));
            v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
        } else {
            #pragma unroll
            for (int e = 0; e < E; ++e) v[e] = 0.f;
        }
    } else {
        #pragma unroll
        for (int e = 0; e < E; ++e) v[e] = (j0 + e < W) ? __ldg(src + j0 + e) : 0.f;
    }
}

template <int E>
__global__ void __launch_bounds__(NTH) ii_band_scan_kernel(const float* __restrict__ x,
                                                           const float* __restrict__ carry,
                                                           float* __restrict__ out,
                                                           int H, int W, int nb, long long nbt) {
    __shared__ float wsum[2][NWARP];
    __shared__ float rowc[RB + 1];
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    int par = 0;
    for (long long bb = blockIdx.x; bb < nbt; bb += gridDim.x) {
        const long long b = bb / nb;
        const int band = (int)(bb - b * nb);
        const int r0 = band * RB;
        const int nr = min(RB, H - r0);
        const float* xb = x + (b * H + r0) * (long long)W;
        float* ob = out + (b * H + r0) * (long long)W;
        const float* cb = carry + bb * W;
        if (t <= RB) rowc[t] = 0.f;
        __syncthreads();
        for (int c0 = 0; c0 < W; c0 += NTH * E) {
            const int j0 = c0 + t * E;
            float acc[E];
            #pragma unroll
            for (int e = 0; e < E; ++e) acc[e] = 0.f;
            float nxt[E];
            load_vals<E>(cb, j0, W, nxt);              // virtual row -1: column carry of this band
            for (int i = -1; i < nr; ++i) {
                float v[E];
                #pragma unroll
                for (int e = 0; e < E; ++e) v[e] = nxt[e];
                if (i + 1 < nr) load_vals<E>(xb + (long long)(i + 1) * W, j0, W, nxt);
                #pragma unroll
                for (int e = 1; e < E; ++e) v[e] += v[e - 1];
                float inc = v[E - 1];
                #pragma unroll
                for (int o = 1; o < 32; o <<= 1) {
                    const float n = __shfl_up_sync(FULL, inc, o);
                    if (lane >= o) inc += n;
                }
                float ex = __shfl_up_sync(FULL, inc, 1);
                if (lane == 0) ex = 0.f;
                if (lane == 31) wsum[par][warp] = inc;
                const float rc = rowc[i + 1];
                __syncthreads();
                float wpre = 0.f, tot = 0.f;
                #pragma unroll
                for (int w = 0; w < NWARP; ++w) {
                    const float u = wsum[par][w];
                    if (w < warp) wpre += u;
                    tot += u;
                }
                // rowc[i+1] is read again only in the next chunk, many barriers later
                if (t == 0) rowc[i + 1] = rc + tot;
                const float add = rc + wpre + ex;
                #pragma unroll
                for (int e = 0; e < E; ++e) acc[e] += v[e] + add;
                if (i >= 0) {
                    float* orow = ob + (long long)i * W;
                    if (E == 4) {
                        if (j0 < W)
                            *reinterpret_cast<float4*>(orow + j0) = make_float4(acc[0], acc[1], acc[2], acc[3]);
                    } else {
                        #pragma unroll
                        for (int e = 0; e < E; ++e) if (j0 + e < W) orow[j0 + e] = acc[e];
                    }
                }
                par ^= 1;
            }
        }
        __syncthreads();   // rowc is reset for the next band
    }
}

torch::Tensor integral_image_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 2, "x must have at least 2 dims");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    if (xc.numel() == 0) return out;
    const int H = (int)xc.size(-2);
    const int W = (int)xc.size(-1);
    const long long B = xc.numel() / ((long long)H * W);
    const int nb = (H + RB - 1) / RB;
    const long long nbt = B * nb;
    auto bsum = torch::empty({nbt, (long long)W}, xc.options());
    const float* xp = xc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    float* bp = bsum.data_ptr<float>();

    dim3 g1((W + 255) / 256, (unsigned)std::min<long long>(nbt, 65535));
    ii_band_colsum_kernel<<<g1, 256>>>(xp, bp, H, W, nb, nbt);

    const long long ncols = B * W;
    ii_band_carry_kernel<<<(unsigned)((ncols + 255) / 256), 256>>>(bp, ncols, W, nb);

    const unsigned g3 = (unsigned)std::min<long long>(nbt, 1LL << 30);
    const bool vec = (W % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(op) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(bp) & 15) == 0);
    if (vec) ii_band_scan_kernel<4><<<g3, NTH>>>(xp, bp, op, H, W, nb, nbt);
    else     ii_band_scan_kernel<1><<<g3, NTH>>>(xp, bp, op, H, W, nb, nbt);
    return out;
}
"""

my_mod = load_inline(
    name="ii_reduce_then_scan_bands_s44",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["integral_image_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.integral_image_cuda(x)
