# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define TILE_X 32   // output columns per block (threadIdx.x, coalesced along the contiguous axis)
#define TILE_Y 8    // threads splitting the reduced axis (threadIdx.y)

// grid = (ceil(inner / TILE_X), outer). Thread (tx, ty) sums rows r = ty, ty + TILE_Y, ... of column
// blockIdx.x * TILE_X + tx, so each warp reads 32 consecutive floats per step. The TILE_Y partial sums
// of a column are then added in shared memory.
__global__ void sum_dim_tile_kernel(const float* __restrict__ x, float* __restrict__ out,
                                    int reduce, int inner) {
    __shared__ float partial[TILE_Y][TILE_X + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * TILE_X + tx;
    const int64_t o = blockIdx.y;
    const float* base = x + o * (int64_t)reduce * inner;

    float acc = 0.0f;
    if (col < inner) {
        for (int r = ty; r < reduce; r += TILE_Y) acc += base[(int64_t)r * inner + col];
    }
    partial[ty][tx] = acc;
    __syncthreads();

    for (int s = TILE_Y / 2; s > 0; s >>= 1) {
        if (ty < s) partial[ty][tx] += partial[ty + s][tx];
        __syncthreads();
    }
    if (ty == 0 && col < inner) out[o * inner + col] = partial[0][tx];
}

torch::Tensor sum_dim_forward(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat, "expected float32 CUDA tensor");
    x = x.contiguous();
    if (dim < 0) dim += x.dim();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
    for (int64_t d = dim + 1; d < x.dim(); ++d) inner *= x.size(d);
    const int64_t reduce = x.size(dim);
    TORCH_CHECK(outer <= 65535, "outer size too large for grid.y");

    auto sizes = x.sizes().vec();
    sizes[dim] = 1;
    auto out = torch::empty(sizes, x.options());

    dim3 block(TILE_X, TILE_Y);
    dim3 grid((unsigned)((inner + TILE_X - 1) / TILE_X), (unsigned)outer);
    sum_dim_tile_kernel<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), (int)reduce, (int)inner);
    return out;
}
"""

cpp_src = "torch::Tensor sum_dim_forward(torch::Tensor x, int64_t dim);"

sum_tile = load_inline(
    name="kbf_sum_dim_tile2d_smem",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["sum_dim_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sum_tile.sum_dim_forward(x, self.dim)
