# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Define the custom CUDA kernel for fused GELU + scaling
gelu_scale_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

__global__ void gelu_scale_kernel(const float* x, float* out, float scale, int size) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < size) {
        float v = x[idx];
        // exact GELU: 0.5 * x * (1 + erf(x / sqrt(2)))
        out[idx] = 0.5f * v * (1.0f + erff(v * 0.70710678118654752f)) * scale;
    }
}

torch::Tensor gelu_scale_cuda(torch::Tensor x, float scale) {
    auto size = x.numel();
    auto out = torch::zeros_like(x);

    const int block_size = 256;
    const int num_blocks = (size + block_size - 1) / block_size;

    gelu_scale_kernel<<<num_blocks, block_size>>>(x.data_ptr<float>(), out.data_ptr<float>(), scale, size);

    return out;
}
"""

gelu_scale_cpp_source = "torch::Tensor gelu_scale_cuda(torch::Tensor x, float scale);"

# Compile the inline CUDA code for fused GELU + scaling
gelu_scale = load_inline(
    name="gelu_scale",
    cpp_sources=gelu_scale_cpp_source,
    cuda_sources=gelu_scale_source,
    functions=["gelu_scale_cuda"],
    verbose=True,
    extra_cflags=[""],
    extra_ldflags=[""],
)


class ModelNew(nn.Module):
    def __init__(self, scale_factor: float) -> None:
        super().__init__()
        self.scale_factor = scale_factor
        self.gelu_scale = gelu_scale

    def forward(self, x):
        return self.gelu_scale.gelu_scale_cuda(x, self.scale_factor)
