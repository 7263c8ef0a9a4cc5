# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# One 512-thread block per row, walking the row in coalesced tiles of 512 elements.
# Each tile is scanned with __shfl_up_sync inside warps plus a second-level scan of
# the 16 warp totals; a running carry links consecutive tiles.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define WS_BLOCK 512
#define WS_WARPS (WS_BLOCK / 32)
#define FULL_MASK 0xffffffffu

__global__ void __launch_bounds__(WS_BLOCK)
exclusive_cumsum_warp_tiled_kernel(const float* __restrict__ x, float* __restrict__ out, int N) {
    __shared__ float warp_excl[WS_WARPS];
    __shared__ float tile_total;
    const int row = blockIdx.x;
    const int t = threadIdx.x;
    const int lane = t & 31;
    const int w = t >> 5;
    const float* xr = x + (size_t)row * N;
    float* orow = out + (size_t)row * N;

    float carry = 0.0f;   // identical in every thread: sum of all previous tiles
    for (int base = 0; base < N; base += WS_BLOCK) {
        const int j = base + t;
        const float v = (j < N) ? __ldg(xr + j) : 0.0f;

        float incl = v;
        #pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            float n = __shfl_up_sync(FULL_MASK, incl, off);
            if (lane >= off) incl += n;
        }
        if (lane == 31) warp_excl[w] = incl;
        __syncthreads();

        if (w == 0) {
            float ws = (lane < WS_WARPS) ? warp_excl[lane] : 0.0f;
            float wincl = ws;
            #pragma unroll
            for (int off = 1; off < 32; off <<= 1) {
                float n = __shfl_up_sync(FULL_MASK, wincl, off);
                if (lane >= off) wincl += n;
            }
            float wexcl = __shfl_up_sync(FULL_MASK, wincl, 1);
            if (lane == 0) wexcl = 0.0f;
            if (lane < WS_WARPS) warp_excl[lane] = wexcl;
            if (lane == 31) tile_total = wincl;
        }
        __syncthreads();

        float lane_excl = __shfl_up_sync(FULL_MASK, incl, 1);
        if (lane == 0) lane_excl = 0.0f;
        if (j < N) orow[j] = carry + (warp_excl[w] + lane_excl);
        carry += tile_total;
        __syncthreads();   // warp_excl / tile_total are rewritten by the next tile
    }
}

torch::Tensor exclusive_cumsum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D (B, N)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int B = (int)xc.size(0);
    const int N = (int)xc.size(1);
    if (B == 0 || N == 0) return out;
    exclusive_cumsum_warp_tiled_kernel<<<B, WS_BLOCK>>>(xc.data_ptr<float>(), out.data_ptr<float>(), N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_source = "torch::Tensor exclusive_cumsum_cuda(torch::Tensor x);"

_ext = load_inline(
    name="exclusive_cumsum_warp_shuffle_tiled",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["exclusive_cumsum_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2 and self.dim in (1, -1), "kernel scans along dim 1 of a 2-D tensor"
        return _ext.exclusive_cumsum_cuda(x)
