# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Classic shared-memory transpose: 32x32 tile, 32x8 threads (4 elements per
// thread), tile padded to 33 columns to avoid bank conflicts. Both the global
// load and the global store are coalesced.
#define TILE 32
#define BLOCK_ROWS 8

__global__ void permute021_tile32_kernel(const float* __restrict__ x,
                                         float* __restrict__ out,
                                         int M, int N) {
    __shared__ float tile[TILE][TILE + 1];
    const long long b = blockIdx.z;
    const float* xb = x + b * (long long)M * N;
    float* ob = out + b * (long long)M * N;
    const int j0 = blockIdx.x * TILE;   // column offset in x (row offset in out)
    const int i0 = blockIdx.y * TILE;   // row offset in x (column offset in out)
    const int tx = threadIdx.x, ty = threadIdx.y;

    // tile[r][c] = x[i0 + r][j0 + c]
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        int i = i0 + r, j = j0 + tx;
        if (i < M && j < N) tile[r][tx] = xb[(long long)i * N + j];
    }
    __syncthreads();
    // out[j0 + r][i0 + c] = x[i0 + c][j0 + r] = tile[c][r]
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        int j = j0 + r, i = i0 + tx;
        if (j < N && i < M) ob[(long long)j * M + i] = tile[tx][r];
    }
}

torch::Tensor permute021_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be 3-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    const int B = (int)x.size(0), M = (int)x.size(1), N = (int)x.size(2);
    auto out = torch::empty({B, N, M}, x.options());
    if (B == 0 || M == 0 || N == 0) return out;
    TORCH_CHECK(B <= 65535, "batch too large for grid.z");
    dim3 block(TILE, BLOCK_ROWS);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE, B);
    TORCH_CHECK(grid.y <= 65535, "too many rows for grid.y");
    permute021_tile32_kernel<<<grid, block>>>(x.data_ptr<float>(), out.data_ptr<float>(), M, N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "permute021_tile32_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_src = "torch::Tensor permute021_forward(torch::Tensor x);"

permute_ext = load_inline(
    name="permute_021_smem_tile32",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["permute021_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return permute_ext.permute021_forward(x.contiguous())
