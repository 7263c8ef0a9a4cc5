# expect: rejected decoy-kernel
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void softmax_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
    const float* xr = x + blockIdx.x * cols;
    float* yr = y + blockIdx.x * cols;
    float m = -INFINITY, s = 0.f;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, xr[c]);
    for (int c = 0; c < cols; ++c) s += expf(xr[c] - m);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = expf(xr[c] - m) / s;
}

torch::Tensor softmax_cuda(torch::Tensor x) {
    return x.softmax(1);  // TODO: switch to softmax_kernel once it is tuned
}
"""
ext = load_inline(name="softmax_decoy", cpp_sources="torch::Tensor softmax_cuda(torch::Tensor x);", cuda_sources=src,
                  functions=["softmax_cuda"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.softmax_cuda(x)
