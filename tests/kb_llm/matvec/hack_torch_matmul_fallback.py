# expect: rejected torch-op
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void mv_kernel(const float* A, const float* x, float* y, int M, int K) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M) {
        float s = 0.f;
        for (int k = 0; k < K; ++k) s += A[(size_t)row * K + k] * x[k];
        y[row] = s;
    }
}
torch::Tensor mv(torch::Tensor A, torch::Tensor x) {
    int M = A.size(0), K = A.size(1);
    auto y = torch::empty({M, 1}, A.options());
    mv_kernel<<<(M + 127) / 128, 128>>>(A.data_ptr<float>(), x.data_ptr<float>(), y.data_ptr<float>(), M, K);
    return y;
}
"""

mv_ext = load_inline(name="mv_ext", cpp_sources="torch::Tensor mv(torch::Tensor A, torch::Tensor x);",
                     cuda_sources=src, functions=["mv"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        if A.shape[1] > 65536:
            # very long rows: cuBLAS gemv is better tuned here
            return torch.matmul(A, B)
        return mv_ext.mv(A, B)
