# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor diag_matmul_naive_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

// One thread per output element, but the flat index is decoded column-major
// (row = idx % N), so consecutive threads touch different rows: every load and
// store of B / C is strided by M floats (uncoalesced).
__global__ void diag_matmul_naive_kernel(const float* A, const float* B, float* C,
                                         int64_t N, int64_t M) {
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= N * M) return;
    int64_t row = idx % N;
    int64_t col = idx / N;
    C[row * M + col] = A[row] * B[row * M + col];
}

torch::Tensor diag_matmul_naive_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 1 && B.dim() == 2, "A must be (N,), B must be (N, M)");
    TORCH_CHECK(A.size(0) == B.size(0), "size mismatch");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    auto a = A.contiguous();
    auto b = B.contiguous();
    const int64_t N = b.size(0), M = b.size(1);
    auto out = torch::empty({N, M}, b.options());
    const int64_t total = N * M;
    if (total == 0) return out;
    const int threads = 256;
    const int64_t blocks = (total + threads - 1) / threads;
    diag_matmul_naive_kernel<<<(unsigned int)blocks, threads>>>(a.data_ptr<float>(), b.data_ptr<float>(),
                                                                out.data_ptr<float>(), N, M);
    return out;
}
"""

diag_naive = load_inline(
    name="diag_matmul_naive_uncoalesced",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["diag_matmul_naive_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return diag_naive.diag_matmul_naive_cuda(A, B)
