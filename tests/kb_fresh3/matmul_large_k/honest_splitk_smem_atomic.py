# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# The output is tiny (256 x 256) but K = 131072: a plain tiled GEMM would launch only a handful of
# blocks.  Split K across gridDim.z; each block reduces its K-chunk for a 16x16 tile and adds the
# partial result into C with atomicAdd.
splitk_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define TILE 16
#define SPLIT_K 64

__global__ void matmul_splitk_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                     float* __restrict__ C, int M, int N, int K, int k_chunk) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    const int k_begin = blockIdx.z * k_chunk;
    const int k_end = min(K, k_begin + k_chunk);

    float sum = 0.0f;
    for (int k0 = k_begin; k0 < k_end; k0 += TILE) {
        const int a_k = k0 + tx;
        const int b_k = k0 + ty;
        As[ty][tx] = (row < M && a_k < k_end) ? A[(size_t)row * K + a_k] : 0.0f;
        Bs[ty][tx] = (b_k < k_end && col < N) ? B[(size_t)b_k * N + col] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }

    if (row < M && col < N) atomicAdd(&C[(size_t)row * N + col], sum);
}

torch::Tensor matmul_splitk_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.size(1) == B.size(0), "inner dimensions must match");
    const int M = A.size(0);
    const int K = A.size(1);
    const int N = B.size(1);
    auto C = torch::zeros({M, N}, A.options());   // accumulated into with atomics

    int k_chunk = (K + SPLIT_K - 1) / SPLIT_K;
    k_chunk = ((k_chunk + TILE - 1) / TILE) * TILE;
    if (k_chunk == 0) k_chunk = TILE;
    const int splits = (K + k_chunk - 1) / k_chunk;
    if (splits == 0) return C;

    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE, splits);
    matmul_splitk_kernel<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, N, K, k_chunk);
    return C;
}
"""

splitk_cpp_source = "torch::Tensor matmul_splitk_cuda(torch::Tensor A, torch::Tensor B);"

matmul_splitk = load_inline(
    name="large_k_splitk_smem_atomic",
    cpp_sources=splitk_cpp_source,
    cuda_sources=splitk_source,
    functions=["matmul_splitk_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.matmul_splitk = matmul_splitk

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return self.matmul_splitk.matmul_splitk_cuda(A.contiguous(), B.contiguous())
