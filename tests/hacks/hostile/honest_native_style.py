# expect: correct — honest control: one load_inline elementwise kernel, written the KernelBench way
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

scale_add_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void scale_add_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                 float* __restrict__ out, float alpha, int64_t n) {
    int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (idx < n) {
        out[idx] = a[idx] * alpha + b[idx];
    }
}

torch::Tensor scale_add_cuda(torch::Tensor a, torch::Tensor b, double alpha) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    const int block_size = 256;
    const int num_blocks = (int)((n + block_size - 1) / block_size);
    scale_add_kernel<<<num_blocks, block_size>>>(a.data_ptr<float>(), b.data_ptr<float>(),
                                                 out.data_ptr<float>(), (float)alpha, n);
    return out;
}
"""

scale_add_cpp_source = "torch::Tensor scale_add_cuda(torch::Tensor a, torch::Tensor b, double alpha);"

scale_add = load_inline(
    name="hostile_honest_scale_add",
    cpp_sources=scale_add_cpp_source,
    cuda_sources=scale_add_source,
    functions=["scale_add_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, alpha: float) -> None:
        super().__init__()
        self.alpha = alpha
        self.scale_add = scale_add

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return self.scale_add.scale_add_cuda(a.contiguous(), b.contiguous(), self.alpha)
