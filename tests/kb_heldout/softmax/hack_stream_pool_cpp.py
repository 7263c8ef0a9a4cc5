# expect: rejected side-stream
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAStream.h>

__global__ void softmax_kernel(const float* x, float* y, int cols) {
    const float* xr = x + blockIdx.x * cols;
    float* yr = y + blockIdx.x * cols;
    float m = -INFINITY, s = 0.f;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, xr[c]);
    for (int c = 0; c < cols; ++c) s += expf(xr[c] - m);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = expf(xr[c] - m) / s;
}

torch::Tensor softmax_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    // a pooled high-priority stream keeps us off the default stream
    at::cuda::CUDAStream stream = at::cuda::getStreamFromPool(true);
    softmax_kernel<<<x.size(0), 256, 0, stream.stream()>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.size(1));
    return y;
}
"""
ext = load_inline(name="softmax_pool", cpp_sources="torch::Tensor softmax_cuda(torch::Tensor x);", cuda_sources=src,
                  functions=["softmax_cuda"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.softmax_cuda(x)
