# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cummax_warp_row(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

#define FULL_MASK 0xffffffffu

// One warp per row. The warp walks the row in 32-element segments: coalesced load,
// Kogge-Stone inclusive max-scan with __shfl_up_sync, combine with the carry from the
// previous segment, store, and broadcast lane 31's value as the next carry.
__global__ void cummax_warp_row_kernel(const float* __restrict__ x, float* __restrict__ y, int B, int L) {
    const int lane = threadIdx.x & 31;
    const int warps_per_block = blockDim.x >> 5;
    const int row = blockIdx.x * warps_per_block + (threadIdx.x >> 5);
    if (row >= B) return;     // whole warp exits together
    const float* xr = x + (long long)row * L;
    float* yr = y + (long long)row * L;
    float carry = -INFINITY;
    for (int base = 0; base < L; base += 32) {
        int i = base + lane;
        float v = (i < L) ? __ldg(xr + i) : -INFINITY;
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            float t = __shfl_up_sync(FULL_MASK, v, off);
            if (lane >= off) v = fmaxf(v, t);
        }
        v = fmaxf(v, carry);
        if (i < L) yr[i] = v;
        carry = __shfl_sync(FULL_MASK, v, 31);
    }
}

torch::Tensor cummax_warp_row(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 2, "x must be a 2-D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    int B = x.size(0), L = x.size(1);
    auto y = torch::empty_like(x);
    if (B == 0 || L == 0) return y;
    const int threads = 256;           // 8 rows per block
    const int rows_per_block = threads / 32;
    int blocks = (B + rows_per_block - 1) / rows_per_block;
    cummax_warp_row_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), B, L);
    return y;
}
"""

cummax_warp_mod = load_inline(
    name="cummax_values_warp_row_carry",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cummax_warp_row"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return cummax_warp_mod.cummax_warp_row(x)
