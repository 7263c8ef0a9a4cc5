# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor diag_matmul_2d_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define TX 32
#define TY 8

// 2D grid of 32x8 blocks: threadIdx.x walks columns (coalesced), threadIdx.y rows.
// The y dimension loops in case N exceeds the 65535-block grid limit.
__global__ void diag_matmul_2d_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                      float* __restrict__ C, int N, int M) {
    const int col = blockIdx.x * TX + threadIdx.x;
    if (col >= M) return;
    for (int row = blockIdx.y * TY + threadIdx.y; row < N; row += gridDim.y * TY) {
        const size_t off = (size_t)row * M + col;
        C[off] = A[row] * B[off];
    }
}

torch::Tensor diag_matmul_2d_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 1 && B.dim() == 2, "A must be (N,), B must be (N, M)");
    TORCH_CHECK(A.size(0) == B.size(0), "size mismatch");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    auto a = A.contiguous();
    auto b = B.contiguous();
    const int N = (int)b.size(0), M = (int)b.size(1);
    auto out = torch::empty({N, M}, b.options());
    if (N == 0 || M == 0) return out;
    dim3 block(TX, TY);
    int gy = (N + TY - 1) / TY;
    if (gy > 65535) gy = 65535;
    dim3 grid((M + TX - 1) / TX, gy);
    diag_matmul_2d_kernel<<<grid, block>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), N, M);
    return out;
}
"""

diag_2d = load_inline(
    name="diag_matmul_2d_grid",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["diag_matmul_2d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return diag_2d.diag_matmul_2d_cuda(A, B)
