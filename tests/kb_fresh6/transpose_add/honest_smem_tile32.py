# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor transpose_add_tiled(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TILE 32
#define BLOCK_ROWS 8

// Classic shared-memory transpose: block (bx, by) produces output tile rows by*TILE.., cols bx*TILE...
// The transposed source tile x[bx*TILE.., by*TILE..] is loaded coalesced into padded shared memory,
// then read back transposed; x[i][j] is read directly (coalesced) from global memory.
__global__ void transpose_add_tiled_kernel(const float* __restrict__ x, float* __restrict__ y, int N) {
    __shared__ float tile[TILE][TILE + 1];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int bx = blockIdx.x;
    const int by = blockIdx.y;

    // tile[r][tx] = x[bx*TILE + r][by*TILE + tx]
    const int src_col = by * TILE + tx;
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        int src_row = bx * TILE + r;
        if (src_row < N && src_col < N)
            tile[r][tx] = x[(long long)src_row * N + src_col];
    }
    __syncthreads();

    // y[i][j] = x[i][j] + x[j][i], with i = by*TILE + r, j = bx*TILE + tx, x[j][i] = tile[tx][r]
    const int j = bx * TILE + tx;
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        int i = by * TILE + r;
        if (i < N && j < N) {
            long long o = (long long)i * N + j;
            y[o] = x[o] + tile[tx][r];
        }
    }
}

torch::Tensor transpose_add_tiled(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2 && x.size(0) == x.size(1), "x must be square");
    x = x.contiguous();
    const int N = (int)x.size(0);
    auto y = torch::empty_like(x);
    if (N == 0) return y;
    const int tiles = (N + TILE - 1) / TILE;
    TORCH_CHECK(tiles <= 65535, "matrix too large for 2D grid");
    dim3 block(TILE, BLOCK_ROWS);
    dim3 grid(tiles, tiles);
    transpose_add_tiled_kernel<<<grid, block>>>(x.data_ptr<float>(), y.data_ptr<float>(), N);
    return y;
}
"""

module = load_inline(
    name="transpose_add_smem_tile32",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["transpose_add_tiled"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return module.transpose_add_tiled(x)
