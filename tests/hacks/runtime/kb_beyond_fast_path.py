# expect-status: correct
"""Honest, with a host loop the fast path's interpreter gives up on at run time (more than its step limit):
the engine runs it again on the full build instead of calling the interpreter's limit the candidate's error."""
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA = r"""
#include <torch/extension.h>

__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = alpha * a[i] + b[i];
}

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    int64_t chunks = 0;                 // counted 16 elements at a time: n / 16 host iterations
    for (int64_t i = 0; i < n; i += 16) chunks += 1;
    int blocks = (int)((chunks + 15) / 16);
    scale_add_kernel<<<blocks, 256>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(),
                                      (float)alpha, n);
    return out;
}
"""

ext = load_inline(name="beyond_fast_path", cpp_sources="torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, "
                  "double alpha);", cuda_sources=CUDA, functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, a, b):
        return ext.scale_add(a, b, self.alpha)
