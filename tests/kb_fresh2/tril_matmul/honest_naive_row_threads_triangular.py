# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

// Exploits the triangular structure: for lower-triangular A and B,
//   C[i][j] = sum_{k=j}^{i} A[i][k] * B[k][j]   (i >= j),   C[i][j] = 0 otherwise.
// One thread per output element; x indexes the row, y the column.
__global__ void triangular_matmul_kernel(const float* __restrict__ A,
                                         const float* __restrict__ B,
                                         float* __restrict__ C,
                                         int N) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= N || col >= N) return;

    if (row < col) {
        C[(long long)row * N + col] = 0.0f;
        return;
    }
    float sum = 0.0f;
    for (int k = col; k <= row; ++k) {
        sum += A[(long long)row * N + k] * B[(long long)k * N + col];
    }
    C[(long long)row * N + col] = sum;
}

torch::Tensor triangular_matmul(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "A and B must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32,
                "A and B must be float32");
    TORCH_CHECK(A.dim() == 2 && A.size(0) == A.size(1), "A must be square");
    TORCH_CHECK(B.sizes() == A.sizes(), "B must have the same shape as A");
    int N = A.size(0);
    auto C = torch::empty({N, N}, A.options());

    const int TS = 16;
    dim3 threads(TS, TS);
    dim3 blocks((N + TS - 1) / TS, (N + TS - 1) / TS);
    triangular_matmul_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);
    return C;
}
"""

cpp_source = "torch::Tensor triangular_matmul(torch::Tensor A, torch::Tensor B);"

triangular_matmul_ext = load_inline(
    name="tril_matmul_naive_row_threads",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["triangular_matmul"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = triangular_matmul_ext

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return self.ext.triangular_matmul(A.contiguous(), B.contiguous())
