# expect: correct — honest control: float4-vectorised kernel with a scalar tail, run last in the batch
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void scale_add_vec4(const float4* __restrict__ a, const float4* __restrict__ b,
                               float4* __restrict__ out, float alpha, int64_t n4) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = a[i], y = b[i];
        out[i] = make_float4(x.x * alpha + y.x, x.y * alpha + y.y, x.z * alpha + y.z, x.w * alpha + y.w);
    }
}

__global__ void scale_add_tail(const float* a, const float* b, float* out, float alpha, int64_t start, int64_t n) {
    int64_t i = start + blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * alpha + b[i];
}

torch::Tensor fused_scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    int64_t n = a.numel(), n4 = n / 4;
    auto stream = at::cuda::getCurrentCUDAStream();
    if (n4 > 0) {
        scale_add_vec4<<<(unsigned)((n4 + 255) / 256), 256, 0, stream>>>(
            reinterpret_cast<const float4*>(a.data_ptr<float>()), reinterpret_cast<const float4*>(b.data_ptr<float>()),
            reinterpret_cast<float4*>(out.data_ptr<float>()), (float)alpha, n4);
    }
    if (n - n4 * 4 > 0) {
        scale_add_tail<<<1, 32, 0, stream>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(),
                                            (float)alpha, n4 * 4, n);
    }
    return out;
}
"""

module = load_inline(
    name="hostile_honest_vec4",
    cpp_sources="torch::Tensor fused_scale_add(torch::Tensor a, torch::Tensor b, double alpha);",
    cuda_sources=source,
    functions=["fused_scale_add"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return module.fused_scale_add(a.contiguous(), b.contiguous(), self.alpha)
