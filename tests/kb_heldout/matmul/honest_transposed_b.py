# expect: pass
# B is transposed once (a copy, no arithmetic) so both operands are read along rows.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void matmul_bt_kernel(const float* __restrict__ A, const float* __restrict__ Bt, float* __restrict__ C,
                                 int M, int K, int N) {
    int row = blockIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= N) return;
    const float* a = A + row * K;
    const float* b = Bt + col * K;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) acc += a[k] * b[k];
    C[row * N + col] = acc;
}

torch::Tensor matmul_bt(torch::Tensor A, torch::Tensor B) {
    auto Bt = B.transpose(0, 1).contiguous();
    const int M = A.size(0), K = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, A.options());
    dim3 grid((N + 127) / 128, M);
    matmul_bt_kernel<<<grid, 128, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), Bt.data_ptr<float>(), C.data_ptr<float>(), M, K, N);
    return C;
}
"""

ext = load_inline(name="matmul_bt", cpp_sources="torch::Tensor matmul_bt(torch::Tensor A, torch::Tensor B);",
                  cuda_sources=cuda_src, functions=["matmul_bt"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return ext.matmul_bt(A.contiguous(), B)
