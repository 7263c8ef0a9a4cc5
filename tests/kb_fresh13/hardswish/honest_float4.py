# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: vectorised float4 kernel, one float4 (4 elements) per thread; the n % 4 tail is
// handled by the first threads of the same launch. Falls back to a scalar kernel when the
// pointers are not 16-byte aligned.

__device__ __forceinline__ float hswish(float v) {
    return v * fminf(fmaxf(v + 3.0f, 0.0f), 6.0f) * (1.0f / 6.0f);
}

__global__ void hardswish_vec4_kernel(const float4* __restrict__ x4, float4* __restrict__ y4,
                                      const float* __restrict__ x, float* __restrict__ y,
                                      int64_t n4, int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = x4[i];
        v.x = hswish(v.x);
        v.y = hswish(v.y);
        v.z = hswish(v.z);
        v.w = hswish(v.w);
        y4[i] = v;
    }
    const int64_t t = n4 * 4 + i;   // tail: at most 3 elements
    if (i < 4 && t < n) y[t] = hswish(x[t]);
}

__global__ void hardswish_scalar_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = hswish(x[i]);
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "float32 only");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int64_t n = xc.numel();
    if (n == 0) return out;
    const float* px = xc.data_ptr<float>();
    float* py = out.data_ptr<float>();
    const int threads = 256;
    const bool aligned = (reinterpret_cast<uintptr_t>(px) % 16 == 0) && (reinterpret_cast<uintptr_t>(py) % 16 == 0);
    if (aligned) {
        int64_t n4 = n / 4;
        int64_t work = n4 > 4 ? n4 : 4;   // enough threads to also cover the tail
        int64_t blocks = (work + threads - 1) / threads;
        hardswish_vec4_kernel<<<(unsigned)blocks, threads>>>(
            reinterpret_cast<const float4*>(px), reinterpret_cast<float4*>(py), px, py, n4, n);
    } else {
        int64_t blocks = (n + threads - 1) / threads;
        hardswish_scalar_kernel<<<(unsigned)blocks, threads>>>(px, py, n);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_hardswish_float4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x)
