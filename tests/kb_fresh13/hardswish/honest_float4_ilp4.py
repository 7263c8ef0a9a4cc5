# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: float4 vectorisation plus instruction-level parallelism: each thread handles UNROLL
// float4 values spaced blockDim apart (all loads issued first, then compute, then stores), so
// more memory requests are in flight per thread. A small second kernel handles the n % 4 tail.

#define UNROLL 4
#define THREADS 256

__device__ __forceinline__ float hswish(float v) {
    return v * fminf(fmaxf(v + 3.0f, 0.0f), 6.0f) * (1.0f / 6.0f);
}

__global__ void __launch_bounds__(THREADS)
hardswish_vec4_ilp_kernel(const float4* __restrict__ x4, float4* __restrict__ y4, int64_t n4) {
    const int64_t base = (int64_t)blockIdx.x * (THREADS * UNROLL) + threadIdx.x;
    float4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
        const int64_t i = base + (int64_t)u * THREADS;
        if (i < n4) v[u] = __ldg(&x4[i]);
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
        const int64_t i = base + (int64_t)u * THREADS;
        if (i < n4) {
            float4 r;
            r.x = hswish(v[u].x);
            r.y = hswish(v[u].y);
            r.z = hswish(v[u].z);
            r.w = hswish(v[u].w);
            y4[i] = r;
        }
    }
}

__global__ void hardswish_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                        int64_t start, int64_t n) {
    const int64_t i = start + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
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
    const bool aligned = (reinterpret_cast<uintptr_t>(px) % 16 == 0) && (reinterpret_cast<uintptr_t>(py) % 16 == 0);
    int64_t done = 0;
    if (aligned) {
        const int64_t n4 = n / 4;
        if (n4 > 0) {
            const int64_t per_block = (int64_t)THREADS * UNROLL;
            const int64_t blocks = (n4 + per_block - 1) / per_block;
            hardswish_vec4_ilp_kernel<<<(unsigned)blocks, THREADS>>>(
                reinterpret_cast<const float4*>(px), reinterpret_cast<float4*>(py), n4);
        }
        done = n4 * 4;
    }
    const int64_t rest = n - done;
    if (rest > 0) {
        const int64_t blocks = (rest + THREADS - 1) / THREADS;
        hardswish_scalar_kernel<<<(unsigned)blocks, THREADS>>>(px, py, done, n);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_hardswish_float4_ilp4",
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
