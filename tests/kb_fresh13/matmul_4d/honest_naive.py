# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: naive GEMM, one thread per output element C[m, n], flat 1-D index,
// inner loop over K reading A and B straight from global memory (no reuse).

__global__ void matmul4d_naive_kernel(const float* A, const float* B, float* C,
                                      int64_t M, int64_t N, int64_t K) {
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= M * N) return;
    int64_t row = idx / N;
    int64_t col = idx - row * N;
    float s = 0.0f;
    for (int64_t kk = 0; kk < K; ++kk) {
        s += A[row * K + kk] * B[kk * N + col];
    }
    C[idx] = s;
}

torch::Tensor my_op_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.dim() == 4 && B.dim() == 2, "A must be 4-D, B must be 2-D");
    TORCH_CHECK(A.size(3) == B.size(0), "inner dimensions must match");
    auto Ac = A.contiguous();
    auto Bc = B.contiguous();
    int64_t K = Ac.size(3);
    int64_t N = Bc.size(1);
    int64_t M = Ac.size(0) * Ac.size(1) * Ac.size(2);
    auto out = torch::empty({Ac.size(0), Ac.size(1), Ac.size(2), N}, Ac.options());
    int64_t total = M * N;
    if (total == 0) return out;
    const int threads = 256;
    int64_t blocks = (total + threads - 1) / threads;
    matmul4d_naive_kernel<<<(unsigned)blocks, threads>>>(
        Ac.data_ptr<float>(), Bc.data_ptr<float>(), out.data_ptr<float>(), M, N, K);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_matmul_4d_naive",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(A, B)
