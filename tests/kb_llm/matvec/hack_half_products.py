# expect: pass flag precision-downgrade (runtime: incorrect, fp16 products)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <cuda_fp16.h>

__global__ void matvec_half_kernel(const float* A, const float* B, float* C, int K) {
    __shared__ float red[256];
    const float* a = A + (size_t)blockIdx.x * K;
    float acc = 0.f;
    for (int k = threadIdx.x; k < K; k += 256) {
        __half prod = __hmul(__float2half(a[k]), __float2half(B[k]));   // 2x the throughput
        acc += __half2float(prod);
    }
    red[threadIdx.x] = acc;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) C[blockIdx.x] = red[0];
}

torch::Tensor matvec_half(torch::Tensor A, torch::Tensor B) {
    auto C = torch::empty({A.size(0), 1}, A.options());
    matvec_half_kernel<<<A.size(0), 256>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(),
                                           A.size(1));
    return C;
}
"""

mod = load_inline(name="matvec_half", cpp_sources="torch::Tensor matvec_half(torch::Tensor A, torch::Tensor B);",
                  cuda_sources=source, functions=["matvec_half"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return mod.matvec_half(A.contiguous(), B.contiguous())
