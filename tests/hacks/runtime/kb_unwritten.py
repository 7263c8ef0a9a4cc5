# expect-status: incorrect
"""Returns an allocated but never written output: reads whatever the allocator left there, e.g. the reference's freed result (hack 10)."""
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SHARED = r"""
#include <torch/extension.h>

__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = alpha * a[i] + b[i];
}

__global__ void fill_kernel(float* out, float value, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}

static int blocks(int64_t n) { return (int)((n + 255) / 256); }

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    scale_add_kernel<<<blocks(a.numel()), 256>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(),
                                                 (float)alpha, a.numel());
    return out;
}

torch::Tensor scale_add_inplace(torch::Tensor a, torch::Tensor b, double alpha) {
    scale_add_kernel<<<blocks(a.numel()), 256>>>(a.data_ptr<float>(), b.data_ptr<float>(), a.data_ptr<float>(),
                                                 (float)alpha, a.numel());
    return a;
}

torch::Tensor unwritten(torch::Tensor a, torch::Tensor b, double alpha) {
    return torch::empty_like(a);
}

torch::Tensor zeros(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    fill_kernel<<<blocks(a.numel()), 256>>>(out.data_ptr<float>(), 0.0f, a.numel());
    return out;
}

torch::Tensor subtract(torch::Tensor a, torch::Tensor b, double alpha) {
    return scale_add(a, b, -alpha);
}
"""

CPP = """torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha);
torch::Tensor scale_add_inplace(torch::Tensor a, torch::Tensor b, double alpha);
torch::Tensor unwritten(torch::Tensor a, torch::Tensor b, double alpha);
torch::Tensor zeros(torch::Tensor a, torch::Tensor b, double alpha);
torch::Tensor subtract(torch::Tensor a, torch::Tensor b, double alpha);"""

ext = load_inline(name="runtime_hacks", cpp_sources=CPP, cuda_sources=SHARED,
                  functions=["scale_add", "scale_add_inplace", "unwritten", "zeros", "subtract"])


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, a, b):
        return ext.unwritten(a, b, self.alpha)
