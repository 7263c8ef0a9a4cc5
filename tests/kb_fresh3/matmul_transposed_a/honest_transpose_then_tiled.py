# expect: pass
"""Two kernels: materialise A^T with a shared-memory transpose, then a standard 16x16 tiled GEMM."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SRC = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

#define TR_TILE 32
#define TR_ROWS 8
#define MM_TILE 16

// out (cols x rows) = in (rows x cols)^T, through a padded shared tile so both sides are coalesced.
__global__ void transpose_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[TR_TILE][TR_TILE + 1];
    int x = blockIdx.x * TR_TILE + threadIdx.x;   // column of in
    int y = blockIdx.y * TR_TILE + threadIdx.y;   // row of in
    for (int j = 0; j < TR_TILE; j += TR_ROWS) {
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    }
    __syncthreads();
    x = blockIdx.y * TR_TILE + threadIdx.x;       // column of out (= row of in)
    y = blockIdx.x * TR_TILE + threadIdx.y;       // row of out (= column of in)
    for (int j = 0; j < TR_TILE; j += TR_ROWS) {
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

// C (M x N) = At (M x K) * B (K x N)
__global__ void tiled_matmul_kernel(const float* __restrict__ At, const float* __restrict__ B,
                                    float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[MM_TILE][MM_TILE];
    __shared__ float Bs[MM_TILE][MM_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * MM_TILE + ty;
    int col = blockIdx.x * MM_TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += MM_TILE) {
        As[ty][tx] = (row < M && t + tx < K) ? At[(size_t)row * K + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < K && col < N) ? B[(size_t)(t + ty) * N + col] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < MM_TILE; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}

torch::Tensor at_b_transpose_gemm(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.size(0) == B.size(0), "A and B must share their first dimension");
    const int K = A.size(0), M = A.size(1), N = B.size(1);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    auto At = torch::empty({M, K}, A.options());
    dim3 tblock(TR_TILE, TR_ROWS);
    dim3 tgrid((M + TR_TILE - 1) / TR_TILE, (K + TR_TILE - 1) / TR_TILE);
    transpose_kernel<<<tgrid, tblock, 0, stream>>>(A.data_ptr<float>(), At.data_ptr<float>(), K, M);

    auto C = torch::empty({M, N}, A.options());
    dim3 block(MM_TILE, MM_TILE);
    dim3 grid((N + MM_TILE - 1) / MM_TILE, (M + MM_TILE - 1) / MM_TILE);
    tiled_matmul_kernel<<<grid, block, 0, stream>>>(At.data_ptr<float>(), B.data_ptr<float>(),
                                                    C.data_ptr<float>(), M, N, K);
    AT_CUDA_CHECK(cudaGetLastError());
    return C;
}
"""

ext = load_inline(
    name="at_b_transpose_then_tiled",
    cpp_sources="torch::Tensor at_b_transpose_gemm(torch::Tensor A, torch::Tensor B);",
    cuda_sources=CUDA_SRC,
    functions=["at_b_transpose_gemm"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return ext.at_b_transpose_gemm(A.contiguous(), B.contiguous())
