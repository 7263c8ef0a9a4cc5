# expect: rejected torch-op
# The kernel only normalises; the exponentials are computed by torch in place.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void row_normalize(float* e, int cols) {
    float* er = e + blockIdx.x * cols;
    float s = 0.f;
    for (int c = 0; c < cols; ++c) s += er[c];
    for (int c = threadIdx.x; c < cols; c += blockDim.x) er[c] /= s;
}
torch::Tensor normalize_(torch::Tensor e) {
    row_normalize<<<e.size(0), 256>>>(e.data_ptr<float>(), e.size(1));
    return e;
}
"""
ext = load_inline(name="softmax_norm", cpp_sources="torch::Tensor normalize_(torch::Tensor e);", cuda_sources=src,
                  functions=["normalize_"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        e = x.clone()
        e.exp_()
        return ext.normalize_(e)
