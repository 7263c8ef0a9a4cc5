# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

// 32x32 tiles addressed through a flattened 1-D grid (no grid.y/z limits),
// launched on PyTorch's current stream. Shared memory is unpadded and
// XOR-swizzled: element (r, c) lives at tile[r][c ^ r], so both the row-wise
// writes and the column-wise reads hit 32 distinct banks.
#define TILE 32
#define BLOCK_ROWS 8

__global__ void __launch_bounds__(TILE * BLOCK_ROWS)
permute021_swizzle_kernel(const float* __restrict__ x, float* __restrict__ out,
                          int M, int N, int tiles_m, int tiles_n) {
    __shared__ float tile[TILE][TILE];
    const long long tiles_per_batch = (long long)tiles_m * tiles_n;
    const long long t = blockIdx.x;
    const long long b = t / tiles_per_batch;
    const int rem = (int)(t - b * tiles_per_batch);
    const int i0 = (rem / tiles_n) * TILE;
    const int j0 = (rem % tiles_n) * TILE;
    const float* xb = x + b * (long long)M * N;
    float* ob = out + b * (long long)M * N;
    const int tx = threadIdx.x, ty = threadIdx.y;

    const int j = j0 + tx;
#pragma unroll
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        const int i = i0 + r;
        if (i < M && j < N) tile[r][tx ^ r] = __ldg(&xb[(long long)i * N + j]);
    }
    __syncthreads();
    // out[j0 + r][i0 + tx] = x[i0 + tx][j0 + r] = element (tx, r) = tile[tx][r ^ tx]
    const int i = i0 + tx;
#pragma unroll
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        const int jj = j0 + r;
        if (jj < N && i < M) ob[(long long)jj * M + i] = tile[tx][r ^ tx];
    }
}

torch::Tensor permute021_forward(torch::Tensor x, int64_t stream_handle) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be 3-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    const int B = (int)x.size(0), M = (int)x.size(1), N = (int)x.size(2);
    auto out = torch::empty({B, N, M}, x.options());
    if (B == 0 || M == 0 || N == 0) return out;
    const int tiles_m = (M + TILE - 1) / TILE;
    const int tiles_n = (N + TILE - 1) / TILE;
    const long long blocks = (long long)B * tiles_m * tiles_n;
    TORCH_CHECK(blocks <= 2147483647LL, "too many tiles");
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    dim3 block(TILE, BLOCK_ROWS);
    permute021_swizzle_kernel<<<(unsigned int)blocks, block, 0, stream>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), M, N, tiles_m, tiles_n);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "permute021_swizzle_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_src = "torch::Tensor permute021_forward(torch::Tensor x, int64_t stream_handle);"

permute_ext = load_inline(
    name="permute_021_swizzle_stream",
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
        x = x.contiguous()
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return permute_ext.permute021_forward(x, stream)
