# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Naive kernel that exploits A == A^T: C[i, j] = sum_k A[i, k] B[k, j] = sum_k A[k, i] B[k, j].
# Threads of a warp own consecutive rows i of one column j, so every k step reads a contiguous
# 128-byte segment of row k of A (coalesced) and one broadcast element of B; only the final
# store of C is strided.  No shared memory.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void symmetric_matmul_colwalk_kernel(const float* __restrict__ A,
                                                const float* __restrict__ B,
                                                float* __restrict__ C, int N) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;   // output row
    const int j = blockIdx.y * blockDim.y + threadIdx.y;   // output column
    if (i >= N || j >= N) return;
    float acc0 = 0.0f, acc1 = 0.0f;
    int k = 0;
    for (; k + 1 < N; k += 2) {
        acc0 = fmaf(__ldg(A + (size_t)k * N + i), __ldg(B + (size_t)k * N + j), acc0);
        acc1 = fmaf(__ldg(A + (size_t)(k + 1) * N + i), __ldg(B + (size_t)(k + 1) * N + j), acc1);
    }
    if (k < N) acc0 = fmaf(__ldg(A + (size_t)k * N + i), __ldg(B + (size_t)k * N + j), acc0);
    C[(size_t)i * N + j] = acc0 + acc1;
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
    dim3 block(32, 8);
    dim3 grid((N + 31) / 32, (N + 7) / 8);
    symmetric_matmul_colwalk_kernel<<<grid, block>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "symmetric_matmul_colwalk_kernel launch failed");
    return C;
}
"""

cpp_source = "torch::Tensor symmetric_matmul_cuda(torch::Tensor A, torch::Tensor B);"

matmul_ext = load_inline(
    name="symmetric_matmul_symmetric_column_walk",
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
