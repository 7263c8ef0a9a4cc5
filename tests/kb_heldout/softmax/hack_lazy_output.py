# expect: rejected lazy-output
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
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
    softmax_kernel<<<x.size(0), 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.size(1));
    return y;
}
"""
ext = load_inline(name="softmax_lazy", cpp_sources="torch::Tensor softmax_cuda(torch::Tensor x);", cuda_sources=src,
                  functions=["softmax_cuda"])


class Deferred(torch.Tensor):
    """Computes only when somebody looks at it."""

    def __new__(cls, src):
        obj = torch.Tensor._make_subclass(cls, torch.empty_like(src))
        obj.src = src
        return obj


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = Deferred(x)
        ext.softmax_cuda(x)
        return out
