# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void naive_matmul(const float* A, const float* B, float* C, int M, int K, int N) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < M && c < N) {
        float acc = 0.f;
        for (int k = 0; k < K; ++k) acc += A[r * K + k] * B[k * N + c];
        C[r * N + c] = acc;
    }
}

void matmul_out(torch::Tensor A, torch::Tensor B, torch::Tensor C) {
    const int M = A.size(0), K = A.size(1), N = B.size(1);
    dim3 block(16, 16);
    dim3 grid((N + 15) / 16, (M + 15) / 16);
    naive_matmul<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K, N);
}
"""

cpp_source = "void matmul_out(torch::Tensor A, torch::Tensor B, torch::Tensor C);"

matmul_ext = load_inline(name="matmul_out_ext", cpp_sources=cpp_source, cuda_sources=cuda_source,
                         functions=["matmul_out"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = matmul_ext

    def forward(self, A, B):
        M, K = A.shape
        _, N = B.shape
        C = torch.empty((M, N), device=A.device, dtype=A.dtype)
        self.ext.matmul_out(A.contiguous(), B.contiguous(), C)
        return C
