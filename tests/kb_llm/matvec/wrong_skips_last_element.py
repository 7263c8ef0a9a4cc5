# expect: pass (runtime: incorrect, the strided loop stops one element short)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>

__global__ void matvec_kernel(const float* A, const float* B, float* C, int M, int K) {
    int row = blockIdx.x;
    __shared__ float cache[256];
    float sum = 0.0f;
    for (int k = threadIdx.x; k < K - 1; k += 256) sum += A[(size_t)row * K + k] * B[k];
    cache[threadIdx.x] = sum;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0 && row < M) C[row] = cache[0];
}

torch::Tensor matvec(torch::Tensor A, torch::Tensor B) {
    int M = A.size(0), K = A.size(1);
    auto C = torch::empty({M, 1}, A.options());
    matvec_kernel<<<M, 256>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K);
    return C;
}
"""

matvec = load_inline(name="matvec_short", cpp_sources="torch::Tensor matvec(torch::Tensor A, torch::Tensor B);",
                     cuda_sources=cuda_source, functions=["matvec"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return matvec.matvec(A.contiguous(), B.contiguous())
