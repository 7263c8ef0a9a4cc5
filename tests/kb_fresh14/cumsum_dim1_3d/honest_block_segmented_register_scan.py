# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// One block per (batch, 32-column slab), 8 warps. The length is processed in tiles of
// NG*R rows: warp g owns R consecutive rows of the tile (lane = column), loads them
// into registers (coalesced 128-byte rows), scans them serially in registers, publishes
// its segment total in shared memory, and after one barrier adds the totals of the
// earlier segments plus the running carry of previous tiles. Totals are double-buffered
// so one __syncthreads per tile suffices.

#define NG 8
#define R 8

__global__ void __launch_bounds__(NG * 32)
cumsum_block_segmented_kernel(const float* __restrict__ x, float* __restrict__ y, int T, int D) {
    __shared__ float tot[2][NG][32];
    const int lane = threadIdx.x & 31;
    const int g = threadIdx.x >> 5;
    const long long b = blockIdx.y;
    const int col = blockIdx.x * 32 + lane;
    const bool colok = col < D;
    const float* xb = x + b * (long long)T * D + col;
    float* yb = y + b * (long long)T * D + col;
    const int TILE = NG * R;

    float carry = 0.f;
    int buf = 0;
    for (int t0 = 0; t0 < T; t0 += TILE, buf ^= 1) {
        const int tb = t0 + g * R;
        float v[R];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            int t = tb + r;
            v[r] = (colok && t < T) ? __ldg(xb + (long long)t * D) : 0.f;
        }
#pragma unroll
        for (int r = 1; r < R; ++r) v[r] += v[r - 1];
        tot[buf][g][lane] = v[R - 1];
        __syncthreads();
        float excl = 0.f, all = 0.f;
#pragma unroll
        for (int gg = 0; gg < NG; ++gg) {
            float s = tot[buf][gg][lane];
            if (gg < g) excl += s;
            all += s;
        }
        const float off = carry + excl;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            int t = tb + r;
            if (colok && t < T) yb[(long long)t * D] = v[r] + off;
        }
        carry += all;
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
    dim3 grid((D + 31) / 32, (unsigned)Bn);
    cumsum_block_segmented_kernel<<<grid, NG * 32>>>(xc.data_ptr<float>(), out.data_ptr<float>(), T, D);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_cumsum_dim1_3d_block_segmented_register_scan",
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
