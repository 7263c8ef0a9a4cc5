# expect: rejected precision-flags
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True

src = """
#include <torch/extension.h>
__global__ void mm_kernel(const float* A, const float* B, float* C, int M, int K, int N) {
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < M && c < N) { float acc = 0.f; for (int k = 0; k < K; ++k) acc += A[r * K + k] * B[k * N + c]; C[r * N + c] = acc; }
}
torch::Tensor mm(torch::Tensor A, torch::Tensor B) {
    int M = A.size(0), K = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, A.options());
    dim3 block(16, 16), grid((N + 15) / 16, (M + 15) / 16);
    mm_kernel<<<grid, block>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K, N);
    return C;
}
"""
ext = load_inline(name="mm_tf32", cpp_sources="torch::Tensor mm(torch::Tensor A, torch::Tensor B);", cuda_sources=src,
                  functions=["mm"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return ext.mm(A, B)
