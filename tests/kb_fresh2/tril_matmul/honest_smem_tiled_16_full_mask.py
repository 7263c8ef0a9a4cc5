# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matmul_tril_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define TILE_SIZE 16

// Classic shared-memory tiled matmul (16x16 tiles, one output per thread),
// with the tril mask fused into the store.
__global__ void matmul_tril_tiled_kernel(const float* __restrict__ A,
                                         const float* __restrict__ B,
                                         float* __restrict__ C,
                                         int N) {
    __shared__ float As[TILE_SIZE][TILE_SIZE];
    __shared__ float Bs[TILE_SIZE][TILE_SIZE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_SIZE + ty;
    int col = blockIdx.x * TILE_SIZE + tx;

    float sum = 0.0f;
    int numTiles = (N + TILE_SIZE - 1) / TILE_SIZE;
    for (int t = 0; t < numTiles; ++t) {
        int aCol = t * TILE_SIZE + tx;
        int bRow = t * TILE_SIZE + ty;
        As[ty][tx] = (row < N && aCol < N) ? A[(long long)row * N + aCol] : 0.0f;
        Bs[ty][tx] = (bRow < N && col < N) ? B[(long long)bRow * N + col] : 0.0f;
        __syncthreads();

        #pragma unroll
        for (int k = 0; k < TILE_SIZE; ++k) {
            sum += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }

    if (row < N && col < N) {
        C[(long long)row * N + col] = (row >= col) ? sum : 0.0f;
    }
}

torch::Tensor matmul_tril_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "inputs must be 2D");
    TORCH_CHECK(A.size(0) == A.size(1) && B.sizes() == A.sizes(), "inputs must be square, same size");
    const int N = A.size(0);
    auto C = torch::empty({N, N}, A.options());

    dim3 block(TILE_SIZE, TILE_SIZE);
    dim3 grid((N + TILE_SIZE - 1) / TILE_SIZE, (N + TILE_SIZE - 1) / TILE_SIZE);
    matmul_tril_tiled_kernel<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);
    return C;
}
"""

matmul_tril_cpp_source = "torch::Tensor matmul_tril_cuda(torch::Tensor A, torch::Tensor B);"

matmul_tril = load_inline(
    name="tril_matmul_smem_tiled_16_full",
    cpp_sources=matmul_tril_cpp_source,
    cuda_sources=matmul_tril_source,
    functions=["matmul_tril_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.matmul_tril = matmul_tril

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return self.matmul_tril.matmul_tril_cuda(A.contiguous(), B.contiguous())
