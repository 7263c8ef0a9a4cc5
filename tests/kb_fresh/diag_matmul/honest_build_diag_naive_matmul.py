# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

diag_matmul_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

// Step 1: materialise the diagonal matrix D = diag(A) (N x N).
__global__ void build_diag_kernel(const float* A, float* D, int N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * N;
    if (idx < total) {
        int i = (int)(idx / N);
        int j = (int)(idx % N);
        D[idx] = (i == j) ? A[i] : 0.0f;
    }
}

// Step 2: naive matmul C = D @ B, one thread per output element.
__global__ void matmul_kernel(const float* D, const float* B, float* C, int N, int M) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < N && col < M) {
        float sum = 0.0f;
        for (int k = 0; k < N; ++k) {
            sum += D[(long long)row * N + k] * B[(long long)k * M + col];
        }
        C[(long long)row * M + col] = sum;
    }
}

torch::Tensor diag_matmul_cuda(torch::Tensor A, torch::Tensor B) {
    int N = A.size(0);
    int M = B.size(1);
    TORCH_CHECK(B.size(0) == N, "B must have A.size(0) rows");

    auto D = torch::empty({N, N}, B.options());
    auto C = torch::empty({N, M}, B.options());

    long long total = (long long)N * N;
    int threads = 256;
    int blocks = (int)((total + threads - 1) / threads);
    build_diag_kernel<<<blocks, threads>>>(A.data_ptr<float>(), D.data_ptr<float>(), N);

    dim3 block(16, 16);
    dim3 grid((M + 15) / 16, (N + 15) / 16);
    matmul_kernel<<<grid, block>>>(D.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N, M);
    return C;
}
"""

diag_matmul_cpp_source = "torch::Tensor diag_matmul_cuda(torch::Tensor A, torch::Tensor B);"

diag_matmul = load_inline(
    name="diag_build_naive_matmul",
    cpp_sources=diag_matmul_cpp_source,
    cuda_sources=diag_matmul_source,
    functions=["diag_matmul_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.diag_matmul = diag_matmul

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return self.diag_matmul.diag_matmul_cuda(A.contiguous(), B.contiguous())
