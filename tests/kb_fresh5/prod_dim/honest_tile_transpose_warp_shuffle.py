# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor prod_dim_tile_shfl_forward(torch::Tensor x, int64_t dim, int64_t stream_ptr);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>
#include <algorithm>

#define TILE 32
#define WARPS 8
#define COLS_PER_WARP (TILE / WARPS)

__device__ __forceinline__ float warp_prod(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v *= __shfl_xor_sync(0xffffffffu, v, off);
    return v;   // every lane holds the full product
}

// Block = 8 warps, covers 32 inner columns of one outer slice.  The reduced axis is walked in
// 32x32 tiles that are loaded coalesced (row-major) into padded shared memory; each warp then
// reads 4 columns of the tile "transposed" (lane = row) and reduces them with warp shuffles.
// The running product of each column lives in registers of its warp.
__global__ void prod_dim_tile_shfl_kernel(const float* __restrict__ x, float* __restrict__ y,
                                          int64_t outer, int64_t R, int64_t inner) {
    __shared__ float tile[TILE][TILE + 1];
    const int lane = threadIdx.x;     // 0..31
    const int warp = threadIdx.y;     // 0..7
    const int64_t c0 = (int64_t)blockIdx.x * TILE;

    for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
        const float* base = x + o * R * inner;
        float run[COLS_PER_WARP];
#pragma unroll
        for (int k = 0; k < COLS_PER_WARP; ++k) run[k] = 1.0f;

        for (int64_t r0 = 0; r0 < R; r0 += TILE) {
#pragma unroll
            for (int k = 0; k < TILE / WARPS; ++k) {
                const int row = warp + k * WARPS;
                const int64_t r = r0 + row;
                const int64_t c = c0 + lane;
                tile[row][lane] = (r < R && c < inner) ? __ldg(base + r * inner + c) : 1.0f;
            }
            __syncthreads();
#pragma unroll
            for (int k = 0; k < COLS_PER_WARP; ++k) {
                const int col = warp + k * WARPS;
                run[k] *= warp_prod(tile[lane][col]);
            }
            __syncthreads();
        }

        if (lane == 0) {
#pragma unroll
            for (int k = 0; k < COLS_PER_WARP; ++k) {
                const int64_t c = c0 + warp + k * WARPS;
                if (c < inner) y[o * inner + c] = run[k];
            }
        }
    }
}

torch::Tensor prod_dim_tile_shfl_forward(torch::Tensor x, int64_t dim, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int64_t nd = xc.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");

    int64_t outer = 1, inner = 1;
    const int64_t R = xc.size(dim);
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < nd; ++d) {
        if (d < dim) outer *= xc.size(d);
        if (d > dim) inner *= xc.size(d);
        if (d != dim) out_shape.push_back(xc.size(d));
    }
    auto y = torch::empty(out_shape, xc.options());
    if (outer * inner == 0) return y;

    const int64_t gx = (inner + TILE - 1) / TILE;
    TORCH_CHECK(gx <= 2147483647LL, "inner dimension too large");
    const int64_t gy = std::min<int64_t>(outer, 65535);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    dim3 block(TILE, WARPS);
    dim3 grid((unsigned int)gx, (unsigned int)gy);
    prod_dim_tile_shfl_kernel<<<grid, block, 0, stream>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), outer, R, inner);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "prod_dim_tile_shfl_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

prod_module = load_inline(
    name="prod_dim_kb5_tile_transpose_warp_shuffle",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["prod_dim_tile_shfl_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return prod_module.prod_dim_tile_shfl_forward(x, self.dim, stream)
