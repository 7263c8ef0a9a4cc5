# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tri_mm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define TILE 32

// Shared-memory tiled matmul specialised for lower-triangular operands.
//  * Tiles strictly above the diagonal (tile row < tile col) are all zero: write zeros and exit.
//  * For a tile (by, bx) with by >= bx only k-tiles bx..by can contribute, because
//    A[i][k] == 0 for k > i and B[k][j] == 0 for k < j.
__global__ void tri_mm_tiled_kernel(const float* __restrict__ A,
                                    const float* __restrict__ B,
                                    float* __restrict__ C,
                                    int N) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    if (blockIdx.y < blockIdx.x) {
        // whole block is in the strictly-upper part (uniform for the block)
        if (row < N && col < N) C[(long long)row * N + col] = 0.0f;
        return;
    }

    float sum = 0.0f;
    const int tStart = blockIdx.x;
    const int tEnd = blockIdx.y;  // inclusive
    for (int t = tStart; t <= tEnd; ++t) {
        int aCol = t * TILE + tx;
        int bRow = t * TILE + ty;
        As[ty][tx] = (row < N && aCol < N) ? A[(long long)row * N + aCol] : 0.0f;
        Bs[ty][tx] = (bRow < N && col < N) ? B[(long long)bRow * N + col] : 0.0f;
        __syncthreads();

        #pragma unroll
        for (int k = 0; k < TILE; ++k) {
            sum += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }

    if (row < N && col < N) {
        C[(long long)row * N + col] = (row >= col) ? sum : 0.0f;
    }
}

torch::Tensor tri_mm(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be on CUDA");
    TORCH_CHECK(A.scalar_type() == torch::kFloat && B.scalar_type() == torch::kFloat, "float32 only");
    TORCH_CHECK(A.dim() == 2 && A.size(0) == A.size(1) && B.sizes() == A.sizes(), "square, same shape");
    const int N = A.size(0);
    auto C = torch::empty({N, N}, A.options());

    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (N + TILE - 1) / TILE);
    tri_mm_tiled_kernel<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "tri_mm_tiled_kernel failed: ", cudaGetErrorString(err));
    return C;
}
"""

tri_mm_cpp = "torch::Tensor tri_mm(torch::Tensor A, torch::Tensor B);"

tri_mm_ext = load_inline(
    name="tril_matmul_smem_tiled_32_skip",
    cpp_sources=tri_mm_cpp,
    cuda_sources=tri_mm_source,
    functions=["tri_mm"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.tri_mm = tri_mm_ext

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return self.tri_mm.tri_mm(A.contiguous(), B.contiguous())
