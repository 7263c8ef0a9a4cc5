# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Barrier-free warp-level segmented scan with float4 I/O. Each warp owns a 16-column
// slab (4 float4 lanes) of one batch entry and walks the length in tiles of 32 rows:
// lane = cl + 4*g, row-group g (0..7) holds R=4 consecutive rows as float4 in registers.
// Per tile: serial scan of the 4 rows in registers, inclusive scan of the 8 group totals
// with __shfl_up_sync (strides 4, 8, 16 lanes), running carry broadcast from the last
// group. The next tile is prefetched into registers before the current one is processed.
// Needs dim % 4 == 0 and 16-byte aligned data, else a scalar per-column kernel is used.

#define RR 4
#define NGRP 8
#define TILE_ROWS (RR * NGRP)
#define WPB 2

__device__ __forceinline__ float4 add4(float4 a, float4 b) {
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
__device__ __forceinline__ float4 shfl_up4(float4 v, int off) {
    return make_float4(__shfl_up_sync(0xffffffffu, v.x, off), __shfl_up_sync(0xffffffffu, v.y, off),
                       __shfl_up_sync(0xffffffffu, v.z, off), __shfl_up_sync(0xffffffffu, v.w, off));
}
__device__ __forceinline__ float4 shfl4(float4 v, int src) {
    return make_float4(__shfl_sync(0xffffffffu, v.x, src), __shfl_sync(0xffffffffu, v.y, src),
                       __shfl_sync(0xffffffffu, v.z, src), __shfl_sync(0xffffffffu, v.w, src));
}

__global__ void __launch_bounds__(WPB * 32)
cumsum_warp_f4_kernel(const float4* __restrict__ x, float4* __restrict__ y,
                      long long nwarps_total, int nslab, int T, int D4) {
    const int lane = threadIdx.x & 31;
    const long long wid = (long long)blockIdx.x * WPB + (threadIdx.x >> 5);
    if (wid >= nwarps_total) return;             // warp-uniform
    const long long b = wid / nslab;
    const int slab = (int)(wid - b * nslab);
    const int cl = lane & 3;
    const int g = lane >> 2;
    const int c4 = slab * 4 + cl;                // float4 column index
    const bool colok = c4 < D4;
    const float4* xb = x + b * (long long)T * D4 + c4;
    float4* yb = y + b * (long long)T * D4 + c4;
    const float4 z = make_float4(0.f, 0.f, 0.f, 0.f);

    float4 cur[RR], nxt[RR];
#pragma unroll
    for (int r = 0; r < RR; ++r) {
        int t = g * RR + r;
        cur[r] = (colok && t < T) ? __ldg(xb + (long long)t * D4) : z;
    }
    float4 carry = z;
    for (int t0 = 0; t0 < T; t0 += TILE_ROWS) {
        const int tn = t0 + TILE_ROWS;
        // prefetch next tile
#pragma unroll
        for (int r = 0; r < RR; ++r) {
            int t = tn + g * RR + r;
            nxt[r] = (colok && t < T) ? __ldg(xb + (long long)t * D4) : z;
        }
        // local serial scan
#pragma unroll
        for (int r = 1; r < RR; ++r) cur[r] = add4(cur[r], cur[r - 1]);
        // inclusive scan of group totals across the 8 groups (lanes with equal cl)
        float4 inc = cur[RR - 1];
#pragma unroll
        for (int off = 4; off < 32; off <<= 1) {
            float4 u = shfl_up4(inc, off);
            if (lane >= off) inc = add4(inc, u);
        }
        float4 excl = shfl_up4(inc, 4);
        if (g == 0) excl = z;
        const float4 tile_total = shfl4(inc, 28 + cl);
        const float4 off4 = add4(carry, excl);
#pragma unroll
        for (int r = 0; r < RR; ++r) {
            int t = t0 + g * RR + r;
            if (colok && t < T) yb[(long long)t * D4] = add4(cur[r], off4);
        }
        carry = add4(carry, tile_total);
#pragma unroll
        for (int r = 0; r < RR; ++r) cur[r] = nxt[r];
    }
}

__global__ void cumsum_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     long long ncols, int T, int D) {
    long long col = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= ncols) return;
    long long b = col / D;
    int d = (int)(col - b * D);
    const float* xp = x + b * (long long)T * D + d;
    float* yp = y + b * (long long)T * D + d;
    float s = 0.f;
    for (int t = 0; t < T; ++t) { s += xp[(long long)t * D]; yp[(long long)t * D] = s; }
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "float32 expected");
    TORCH_CHECK(x.dim() == 3, "expected a 3-D tensor");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    long long Bn = xc.size(0);
    int T = (int)xc.size(1);
    int D = (int)xc.size(2);
    if (Bn == 0 || T == 0 || D == 0) return out;
    const float* xp = xc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    bool vec_ok = (D % 4 == 0) && (((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0);
    if (vec_ok) {
        int D4 = D / 4;
        int nslab = (D4 + 3) / 4;
        long long nw = Bn * nslab;
        long long blocks = (nw + WPB - 1) / WPB;
        cumsum_warp_f4_kernel<<<(unsigned)blocks, WPB * 32>>>(reinterpret_cast<const float4*>(xp),
                                                              reinterpret_cast<float4*>(yp), nw, nslab, T, D4);
    } else {
        long long ncols = Bn * D;
        const int threads = 256;
        cumsum_scalar_kernel<<<(unsigned)((ncols + threads - 1) / threads), threads>>>(xp, yp, ncols, T, D);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_cumsum_dim1_3d_warp_float4_shfl_prefetch",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x)
