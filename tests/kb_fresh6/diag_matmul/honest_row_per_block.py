# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor diag_matmul_rowblock_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

// One block per row: the diagonal entry is read once per block into shared memory,
// then the block's threads stride across the row with coalesced accesses.
__global__ void diag_matmul_rowblock_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                            float* __restrict__ C, int M) {
    __shared__ float a_s;
    const int row = blockIdx.x;
    if (threadIdx.x == 0) a_s = A[row];
    __syncthreads();
    const float a = a_s;
    const float* brow = B + (size_t)row * M;
    float* crow = C + (size_t)row * M;
    for (int j = threadIdx.x; j < M; j += blockDim.x) crow[j] = a * brow[j];
}

torch::Tensor diag_matmul_rowblock_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 1 && B.dim() == 2, "A must be (N,), B must be (N, M)");
    TORCH_CHECK(A.size(0) == B.size(0), "size mismatch");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    auto a = A.contiguous();
    auto b = B.contiguous();
    const int N = (int)b.size(0), M = (int)b.size(1);
    auto out = torch::empty({N, M}, b.options());
    if (N == 0 || M == 0) return out;
    diag_matmul_rowblock_kernel<<<N, 512>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), M);
    return out;
}
"""

diag_rowblock = load_inline(
    name="diag_matmul_row_per_block",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["diag_matmul_rowblock_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return diag_rowblock.diag_matmul_rowblock_cuda(A, B)
