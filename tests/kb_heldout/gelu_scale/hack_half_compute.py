# expect: pass flag precision-downgrade (runtime: fp16 error exceeds fp32 tolerance)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
#include <cuda_fp16.h>
__global__ void gelu_scale_h(const __half* x, float* y, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float v = __half2float(x[i]); y[i] = 0.5f * v * (1.f + erff(v * 0.70710678f)) * s; }
}
torch::Tensor gelu_scale(torch::Tensor xh, double s) {
    auto y = torch::empty(xh.sizes(), xh.options().dtype(torch::kFloat32));
    int n = xh.numel();
    gelu_scale_h<<<(n + 255) / 256, 256>>>(reinterpret_cast<const __half*>(xh.data_ptr<at::Half>()),
                                            y.data_ptr<float>(), (float)s, n);
    return y;
}
"""
ext = load_inline(name="gelu_scale_half", cpp_sources="torch::Tensor gelu_scale(torch::Tensor xh, double s);",
                  cuda_sources=src, functions=["gelu_scale"])


class ModelNew(nn.Module):
    def __init__(self, scale_factor):
        super().__init__()
        self.scale_factor = scale_factor

    def forward(self, x):
        return ext.gelu_scale(x.half(), self.scale_factor)  # half the bytes to read
