# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// One block per (batch, 32-column slab). The length is walked in 32x32 tiles that are
// loaded coalesced into a padded (double-buffered) shared tile; each warp then scans
// 4 columns of the tile along the length with a 5-step __shfl_up_sync warp scan (lane =
// row), adds the per-column running carry kept in registers, and the tile is written
// back coalesced.

#define TS 32
#define NW 8

__global__ void __launch_bounds__(NW * 32)
cumsum_tile_shfl_kernel(const float* __restrict__ x, float* __restrict__ y, int T, int D) {
    __shared__ float tile[2][TS][TS + 1];
    const int lane = threadIdx.x & 31;
    const int w = threadIdx.x >> 5;
    const long long b = blockIdx.y;
    const int c0 = blockIdx.x * TS;
    const int col = c0 + lane;
    const bool colok = col < D;
    const float* xb = x + b * (long long)T * D;
    float* yb = y + b * (long long)T * D;

    float carry[TS / NW];
#pragma unroll
    for (int cc = 0; cc < TS / NW; ++cc) carry[cc] = 0.f;

    int buf = 0;
    for (int t0 = 0; t0 < T; t0 += TS, buf ^= 1) {
        // coalesced load: warp w loads rows w, w+8, w+16, w+24 of the tile
#pragma unroll
        for (int rr = 0; rr < TS / NW; ++rr) {
            int r = w + rr * NW;
            int t = t0 + r;
            tile[buf][r][lane] = (colok && t < T) ? xb[(long long)t * D + col] : 0.f;
        }
        __syncthreads();
        // warp w scans columns 4w .. 4w+3 along the 32 rows (lane = row)
#pragma unroll
        for (int cc = 0; cc < TS / NW; ++cc) {
            int c = w * (TS / NW) + cc;
            float v = tile[buf][lane][c];
#pragma unroll
            for (int off = 1; off < 32; off <<= 1) {
                float u = __shfl_up_sync(0xffffffffu, v, off);
                if (lane >= off) v += u;
            }
            v += carry[cc];
            carry[cc] = __shfl_sync(0xffffffffu, v, 31);
            tile[buf][lane][c] = v;
        }
        __syncthreads();
        // coalesced store
#pragma unroll
        for (int rr = 0; rr < TS / NW; ++rr) {
            int r = w + rr * NW;
            int t = t0 + r;
            if (colok && t < T) yb[(long long)t * D + col] = tile[buf][r][lane];
        }
        // no third barrier: the next tile goes to the other buffer, and this buffer is
        // only rewritten after the next iteration's two barriers.
    }
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
    TORCH_CHECK(Bn <= 65535, "batch too large for grid.y");
    dim3 grid((D + TS - 1) / TS, (unsigned)Bn);
    cumsum_tile_shfl_kernel<<<grid, NW * 32>>>(xc.data_ptr<float>(), out.data_ptr<float>(), T, D);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_cumsum_dim1_3d_smem_transpose_warp_shfl",
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
