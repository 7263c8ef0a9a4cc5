# expect: rejected threads
import threading

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
void softmax_out(torch::Tensor x, torch::Tensor y) {
    softmax_kernel<<<x.size(0), 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.size(1));
}
"""
ext = load_inline(name="softmax_thread", cpp_sources="void softmax_out(torch::Tensor x, torch::Tensor y);",
                  cuda_sources=src, functions=["softmax_out"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        threading.Thread(target=ext.softmax_out, args=(x, y)).start()
        return y
