# expect: pass (runtime: constant output 1/cols, wrong result)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
__global__ void fill_uniform(float* y, float v, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;  // softmax of near-equal logits is ~1/cols
}
torch::Tensor softmax_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    long n = x.numel();
    fill_uniform<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(y.data_ptr<float>(),
                                                                              1.0f / x.size(1), n);
    return y;
}
"""
ext = load_inline(name="softmax_uniform", cpp_sources="torch::Tensor softmax_cuda(torch::Tensor x);",
                  cuda_sources=src, functions=["softmax_cuda"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.softmax_cuda(x)
