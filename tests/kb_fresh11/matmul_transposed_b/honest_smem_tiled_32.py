# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matmul_tb_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Strategy: classic 32x32 shared-memory tiling, one output per thread (1024 threads per block).
// Both operands are K-contiguous, so the A tile (32 rows of M x 32 k) and the B tile
// (32 rows of N x 32 k) are loaded with coalesced reads along K. The tiles are padded to 33
// columns so that reading Bs[tx][kk] across a warp is free of bank conflicts.
#define TILE 32

__global__ void matmul_tb_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                       float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[TILE][TILE + 1];  // As[m_local][k_local]
    __shared__ float Bs[TILE][TILE + 1];  // Bs[n_local][k_local]

    const int tx = threadIdx.x;  // 0..31 (n direction for the output, k direction for loads)
    const int ty = threadIdx.y;  // 0..31
    const int m0 = blockIdx.y * TILE;
    const int n0 = blockIdx.x * TILE;
    const int row = m0 + ty;     // output row handled by this thread
    const int col = n0 + tx;     // output col handled by this thread

    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        const int k = k0 + tx;
        const int ar = m0 + ty;
        const int br = n0 + ty;
        As[ty][tx] = (ar < M && k < K) ? A[(size_t)ar * K + k] : 0.0f;
        Bs[ty][tx] = (br < N && k < K) ? B[(size_t)br * K + k] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < TILE; ++kk) {
            acc += As[ty][kk] * Bs[tx][kk];
        }
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}

torch::Tensor matmul_tb_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "A and B must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "A and B must be 2D");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.size(1) == B.size(1), "inner dimensions must match");
    auto Ac = A.contiguous();
    auto Bc = B.contiguous();
    const int M = (int)Ac.size(0);
    const int K = (int)Ac.size(1);
    const int N = (int)Bc.size(0);
    auto C = torch::empty({M, N}, Ac.options());
    if (M == 0 || N == 0) return C;

    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul_tb_tiled_kernel<<<grid, block>>>(Ac.data_ptr<float>(), Bc.data_ptr<float>(),
                                            C.data_ptr<float>(), M, N, K);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return C;
}
"""

matmul_tb_mod = load_inline(
    name="kbf11_matmul_tb_smem_tiled_32",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["matmul_tb_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return matmul_tb_mod.matmul_tb_cuda(A, B)
