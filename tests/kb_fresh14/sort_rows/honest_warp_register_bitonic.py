# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
// Strategy: one warp per row, the whole (+inf padded) 1024-element row lives in registers, 32 values
// per lane in a blocked layout (element index = lane*32 + r). The fully unrolled bitonic network does
// partner distances < 32 as in-register compare-exchanges and distances >= 32 with __shfl_xor_sync,
// so there is no block barrier at all. Loads/stores go through a padded per-warp shared-memory
// staging buffer so the global accesses stay coalesced and the transposed reads are conflict-free.
#include <torch/extension.h>
#include <cuda_runtime.h>

#define N 1024
#define PER 32
#define WPB 4
#define SPAD (N + N / 32)

__device__ __forceinline__ void cex(float& a, float& b, bool asc) {
    float lo = fminf(a, b);
    float hi = fmaxf(a, b);
    a = asc ? lo : hi;
    b = asc ? hi : lo;
}

__global__ void __launch_bounds__(WPB * 32) warp_bitonic_kernel(const float* __restrict__ x,
                                                                float* __restrict__ out,
                                                                long long rows, int cols) {
    __shared__ float stage[WPB][SPAD];
    const int warp = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    const long long row = (long long)blockIdx.x * WPB + warp;
    if (row >= rows) return;   // whole warp leaves together; only __syncwarp is used below
    const float* xr = x + row * cols;
    float* orow = out + row * cols;
    float* s = stage[warp];
    const float INF = __int_as_float(0x7f800000);

    // coalesced load: element i = q*32 + lane stored at i + i/32 = q*33 + lane
#pragma unroll 8
    for (int q = 0; q < PER; ++q) {
        int i = q * 32 + lane;
        s[q * 33 + lane] = (i < cols) ? __ldg(xr + i) : INF;
    }
    __syncwarp();
    float v[PER];
#pragma unroll
    for (int r = 0; r < PER; ++r) v[r] = s[lane * 33 + r];   // element lane*32 + r

#pragma unroll
    for (int kk = 1; kk <= 10; ++kk) {
        const int k = 1 << kk;
#pragma unroll
        for (int jj = kk - 1; jj >= 0; --jj) {
            const int j = 1 << jj;
            if (j >= 32) {
                // partner is lane ^ (j/32), same register; here k >= 64
                const int lm = j >> 5;
                const bool asc = (lane & (k >> 5)) == 0;
                const bool lower = (lane & lm) == 0;
                const bool takeMin = (asc == lower);
#pragma unroll
                for (int r = 0; r < PER; ++r) {
                    float o = __shfl_xor_sync(0xffffffffu, v[r], lm);
                    v[r] = takeMin ? fminf(v[r], o) : fmaxf(v[r], o);
                }
            } else {
                // partner is register r ^ j in the same lane
#pragma unroll
                for (int r = 0; r < PER; ++r) {
                    if ((r & j) == 0) {
                        bool asc;
                        if (k >= 32) asc = (lane & (k >> 5)) == 0;
                        else asc = (r & k) == 0;
                        cex(v[r], v[r | j], asc);
                    }
                }
            }
        }
    }

    __syncwarp();
#pragma unroll
    for (int r = 0; r < PER; ++r) s[lane * 33 + r] = v[r];
    __syncwarp();
#pragma unroll 8
    for (int q = 0; q < PER; ++q) {
        int i = q * 32 + lane;
        if (i < cols) orow[i] = s[q * 33 + lane];
    }
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    long long rows = xc.size(0);
    long long cols64 = xc.size(1);
    if (rows == 0 || cols64 == 0) return out;
    TORCH_CHECK(cols64 <= N, "this kernel supports rows of at most 1024 elements");
    int cols = (int)cols64;
    long long blocks = (rows + WPB - 1) / WPB;
    TORCH_CHECK(blocks <= 2147483647LL, "too many rows");
    warp_bitonic_kernel<<<(unsigned)blocks, WPB * 32>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_sort_rows_warp_register_bitonic",
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
