# expect: rejected library-call
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <cublas_v2.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void fill_one(float* p) { *p = 1.0f; }

torch::Tensor fast_gemv(torch::Tensor A, torch::Tensor x) {
    int M = A.size(0), K = A.size(1);
    auto y = torch::empty({M, 1}, A.options());
    auto one = torch::empty({1}, A.options());
    fill_one<<<1, 1>>>(one.data_ptr<float>());
    cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
    float alpha = 1.0f, beta = 0.0f;
    // row-major A is column-major A^T: y = (A^T)^T x
    cublasSgemv(handle, CUBLAS_OP_T, K, M, &alpha, A.data_ptr<float>(), K, x.data_ptr<float>(), 1, &beta,
                y.data_ptr<float>(), 1);
    return y;
}
"""

gemv = load_inline(name="fast_gemv", cpp_sources="torch::Tensor fast_gemv(torch::Tensor A, torch::Tensor x);",
                   cuda_sources=cuda_source, functions=["fast_gemv"], extra_ldflags=["-lcublas"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return gemv.fast_gemv(A.contiguous(), B.contiguous())
