# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define WARPS_PER_BLOCK 8
#define FULL_MASK 0xffffffffu

// One warp scans one row, 32 elements per step: a Kogge-Stone scan with __shfl_up_sync inside
// the warp, and the row's running total carried from lane 31 to the next step.
__global__ void warp_row_cumsum_kernel(const float* __restrict__ x, float* __restrict__ y,
                                       int rows, int len) {
    const int warp_id = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * WARPS_PER_BLOCK + warp_id;
    if (row >= rows) return;  // uniform per warp

    const float* xr = x + (int64_t)row * len;
    float* yr = y + (int64_t)row * len;
    float carry = 0.0f;
    for (int base = 0; base < len; base += 32) {
        const int idx = base + lane;
        float v = (idx < len) ? xr[idx] : 0.0f;
        #pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            float n = __shfl_up_sync(FULL_MASK, v, off);
            if (lane >= off) v += n;
        }
        v += carry;
        if (idx < len) yr[idx] = v;
        carry = __shfl_sync(FULL_MASK, v, 31);
    }
}

torch::Tensor warp_cumsum(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat, "expected a float32 CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "expected a 2D tensor");
    auto xc = x.contiguous();
    const int rows = xc.size(0);
    const int len = xc.size(1);
    auto y = torch::empty_like(xc);
    const int threads = WARPS_PER_BLOCK * 32;
    const int blocks = (rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    warp_row_cumsum_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), rows, len);
    return y;
}
"""

cpp_src = "torch::Tensor warp_cumsum(torch::Tensor x);"

warp_cumsum_ext = load_inline(
    name="kbf_cumsum_warp_per_row_shuffle",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["warp_cumsum"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    """Cumulative sum along dim 1 of a 2D tensor, one warp per row."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2 and self.dim in (1, -1)
        return warp_cumsum_ext.warp_cumsum(x)
