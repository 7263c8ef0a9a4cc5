# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Classic shared-memory tiled GEMM: 16x16 thread blocks stage 16x16 tiles of A and B in shared
# memory (zero-padded at the edges), then each thread accumulates its C element in a float
# register over the tile's 16 k values.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TILE 16

__global__ void symmetric_matmul_tiled16_kernel(const float* __restrict__ A,
                                                const float* __restrict__ B,
                                                float* __restrict__ C, int N) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TILE) {
        const int ka = k0 + tx;
        const int kb = k0 + ty;
        As[ty][tx] = (row < N && ka < N) ? A[(size_t)row * N + ka] : 0.0f;
        Bs[ty][tx] = (kb < N && col < N) ? B[(size_t)kb * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TILE; ++kk) acc = fmaf(As[ty][kk], Bs[kk][tx], acc);
        __syncthreads();
    }
    if (row < N && col < N) C[(size_t)row * N + col] = acc;
}

torch::Tensor symmetric_matmul_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "inputs must be 2-D");
    TORCH_CHECK(A.size(0) == A.size(1) && B.size(0) == B.size(1) && A.size(0) == B.size(0),
                "inputs must be square matrices of the same size");
    A = A.contiguous();
    B = B.contiguous();
    const int N = (int)A.size(0);
    auto C = torch::empty({N, N}, A.options());
    if (N == 0) return C;
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (N + TILE - 1) / TILE);
    symmetric_matmul_tiled16_kernel<<<grid, block>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "symmetric_matmul_tiled16_kernel launch failed");
    return C;
}
"""

cpp_source = "torch::Tensor symmetric_matmul_cuda(torch::Tensor A, torch::Tensor B);"

matmul_ext = load_inline(
    name="symmetric_matmul_smem_tiled16",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["symmetric_matmul_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return matmul_ext.symmetric_matmul_cuda(A, B)
