# expect: pass
# (ModelNew omits __init__; the reference's __init__ takes no arguments, so the signatures agree.)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>

__global__ void row_softmax(const float* x, float* y, int cols) {
    // naive: one thread per row
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    const float* xr = x + (long)r * cols;
    float* yr = y + (long)r * cols;
    float mx = xr[0];
    for (int c = 1; c < cols; ++c) mx = fmaxf(mx, xr[c]);
    float s = 0.f;
    for (int c = 0; c < cols; ++c) { float e = expf(xr[c] - mx); yr[c] = e; s += e; }
    for (int c = 0; c < cols; ++c) yr[c] /= s;
}

torch::Tensor row_softmax_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    row_softmax<<<1, rows>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.size(1));
    return y;
}
"""

ext = load_inline("row_softmax", cpp_sources="torch::Tensor row_softmax_cuda(torch::Tensor x);", cuda_sources=src,
                  functions=["row_softmax_cuda"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.row_softmax_cuda(x)
