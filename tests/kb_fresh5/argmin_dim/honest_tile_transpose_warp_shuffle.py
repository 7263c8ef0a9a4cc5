# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor argmin_dim_tile_shfl_forward(torch::Tensor x, int64_t dim, int64_t stream_ptr);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>
#include <algorithm>
#include <climits>

#define TILE 32
#define WARPS 8
#define COLS_PER_WARP (TILE / WARPS)

__device__ __forceinline__ bool argmin_better(float v, int i, float bv, int bi) {
    const bool vn = isnan(v), bn = isnan(bv);
    if (vn || bn) return vn && (!bn || i < bi);
    return v < bv || (v == bv && i < bi);
}

// Butterfly (xor) argmin over the warp.  argmin_better is a strict total order on (value, index)
// pairs with distinct indices, so every lane ends with the same winner.
__device__ __forceinline__ void warp_argmin(float& v, int& i) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        const float ov = __shfl_xor_sync(0xffffffffu, v, off);
        const int oi = __shfl_xor_sync(0xffffffffu, i, off);
        if (argmin_better(ov, oi, v, i)) { v = ov; i = oi; }
    }
}

// Block = 8 warps covering 32 inner columns of one outer slice.  32x32 tiles of (reduced row,
// column) are staged coalesced into padded shared memory; warp w then handles columns w, w+8,
// w+16, w+24 of the tile with lane = reduced row and a shuffle argmin, folding the tile winner
// into a running (value, index) kept in registers.
__global__ void argmin_dim_tile_shfl_kernel(const float* __restrict__ x, int64_t* __restrict__ out,
                                            int64_t outer, int64_t R, int64_t inner) {
    __shared__ float tile[TILE][TILE + 1];
    const int lane = threadIdx.x;
    const int warp = threadIdx.y;
    const int64_t c0 = (int64_t)blockIdx.x * TILE;

    for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
        const float* base = x + o * R * inner;
        float run_v[COLS_PER_WARP];
        int run_i[COLS_PER_WARP];
#pragma unroll
        for (int k = 0; k < COLS_PER_WARP; ++k) { run_v[k] = INFINITY; run_i[k] = INT_MAX; }

        for (int r0 = 0; r0 < R; r0 += TILE) {
#pragma unroll
            for (int k = 0; k < TILE / WARPS; ++k) {
                const int row = warp + k * WARPS;
                const int r = r0 + row;
                const int64_t c = c0 + lane;
                tile[row][lane] = (r < R && c < inner) ? __ldg(base + (int64_t)r * inner + c) : INFINITY;
            }
            __syncthreads();
            const int my_r = r0 + lane;
            const bool row_ok = my_r < R;
#pragma unroll
            for (int k = 0; k < COLS_PER_WARP; ++k) {
                const int col = warp + k * WARPS;
                float v = row_ok ? tile[lane][col] : INFINITY;
                int vi = row_ok ? my_r : INT_MAX;
                warp_argmin(v, vi);
                if (argmin_better(v, vi, run_v[k], run_i[k])) { run_v[k] = v; run_i[k] = vi; }
            }
            __syncthreads();
        }

        if (lane == 0) {
#pragma unroll
            for (int k = 0; k < COLS_PER_WARP; ++k) {
                const int64_t c = c0 + warp + k * WARPS;
                if (c < inner) out[o * inner + c] = (int64_t)run_i[k];
            }
        }
    }
}

torch::Tensor argmin_dim_tile_shfl_forward(torch::Tensor x, int64_t dim, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int64_t nd = xc.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");

    int64_t outer = 1, inner = 1;
    const int64_t R = xc.size(dim);
    TORCH_CHECK(R > 0, "argmin over an empty dimension");
    TORCH_CHECK(R < INT_MAX - TILE, "reduced dimension too large for int indices");
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < nd; ++d) {
        if (d < dim) outer *= xc.size(d);
        if (d > dim) inner *= xc.size(d);
        if (d != dim) out_shape.push_back(xc.size(d));
    }
    auto out = torch::empty(out_shape, xc.options().dtype(torch::kInt64));
    if (outer * inner == 0) return out;

    const int64_t gx = (inner + TILE - 1) / TILE;
    TORCH_CHECK(gx <= 2147483647LL, "inner dimension too large");
    const int64_t gy = std::min<int64_t>(outer, 65535);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    dim3 block(TILE, WARPS);
    dim3 grid((unsigned int)gx, (unsigned int)gy);
    argmin_dim_tile_shfl_kernel<<<grid, block, 0, stream>>>(
        xc.data_ptr<float>(), out.data_ptr<int64_t>(), outer, R, inner);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "argmin_dim_tile_shfl_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

argmin_module = load_inline(
    name="argmin_dim_kb5_tile_transpose_warp_shuffle",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["argmin_dim_tile_shfl_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return argmin_module.argmin_dim_tile_shfl_forward(x, self.dim, stream)
