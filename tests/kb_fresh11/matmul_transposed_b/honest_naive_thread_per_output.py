# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matmul_tb_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Naive strategy: one thread per output element C[m][n] = dot(A[m,:], B[n,:]).
// No shared memory, no data reuse beyond what the caches happen to give.
__global__ void matmul_tb_naive_kernel(const float* A, const float* B, float* C,
                                       int M, int N, int K) {
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    int m = blockIdx.y * blockDim.y + threadIdx.y;
    if (m < M && n < N) {
        const float* a = A + (size_t)m * K;
        const float* b = B + (size_t)n * K;
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) {
            acc += a[k] * b[k];
        }
        C[(size_t)m * N + n] = acc;
    }
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

    dim3 block(16, 16);
    dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
    matmul_tb_naive_kernel<<<grid, block>>>(
        Ac.data_ptr<float>(), Bc.data_ptr<float>(), C.data_ptr<float>(), M, N, K);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return C;
}
"""

matmul_tb_mod = load_inline(
    name="kbf11_matmul_tb_naive_thread_per_output",
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
