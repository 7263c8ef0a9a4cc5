# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rms_norm_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// Kernel 1: one thread per (batch, pixel) computes 1 / rms into a small buffer.
__global__ void inv_rms_kernel(const float* __restrict__ x, float* __restrict__ inv_rms,
                               int64_t N, int64_t C, int64_t S, float eps) {
    const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= N * S) return;
    const int64_t n = idx / S;
    const int64_t s = idx % S;
    const float* p = x + n * C * S + s;
    float sum_sq = 0.0f;
    for (int64_t c = 0; c < C; ++c) {
        const float v = p[c * S];
        sum_sq += v * v;
    }
    inv_rms[idx] = rsqrtf(sum_sq / (float)C + eps);
}

// Kernel 2 (vectorised): grid-stride elementwise scale, 4 elements per step.
// Requires S % 4 == 0 so that 4 consecutive elements share (n, c) and their
// inverse-rms values are 4 consecutive, 16-byte aligned floats.
__global__ void scale_vec4_kernel(const float4* __restrict__ x, const float4* __restrict__ inv_rms,
                                  float4* __restrict__ y, int64_t total4, int64_t C, int64_t S4) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total4; i += stride) {
        const int64_t s4 = i % S4;
        const int64_t n = i / (C * S4);
        const float4 v = x[i];
        const float4 r = inv_rms[n * S4 + s4];
        y[i] = make_float4(v.x * r.x, v.y * r.y, v.z * r.z, v.w * r.w);
    }
}

// Kernel 2 (scalar fallback).
__global__ void scale_scalar_kernel(const float* __restrict__ x, const float* __restrict__ inv_rms,
                                    float* __restrict__ y, int64_t total, int64_t C, int64_t S) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        const int64_t s = i % S;
        const int64_t n = i / (C * S);
        y[i] = x[i] * inv_rms[n * S + s];
    }
}

torch::Tensor rms_norm_cuda(torch::Tensor x, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 2, "x must have a feature dimension");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const int64_t total = x.numel();
    if (total == 0) return y;
    const int64_t N = x.size(0);
    const int64_t C = x.size(1);
    const int64_t S = total / (N * C);
    auto stream = at::cuda::getCurrentCUDAStream();

    auto inv = torch::empty({N, S}, x.options());
    {
        const int threads = 256;
        const int64_t blocks = (N * S + threads - 1) / threads;
        inv_rms_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
            x.data_ptr<float>(), inv.data_ptr<float>(), N, C, S, (float)eps);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
    }

    const int threads = 512;
    const bool aligned = (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(y.data_ptr<float>()) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(inv.data_ptr<float>()) % 16 == 0);
    if (S % 4 == 0 && aligned) {
        const int64_t total4 = total / 4;
        const int64_t blocks = std::min<int64_t>((total4 + threads - 1) / threads, 65535);
        scale_vec4_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
            reinterpret_cast<const float4*>(x.data_ptr<float>()),
            reinterpret_cast<const float4*>(inv.data_ptr<float>()),
            reinterpret_cast<float4*>(y.data_ptr<float>()), total4, C, S / 4);
    } else {
        const int64_t blocks = std::min<int64_t>((total + threads - 1) / threads, 65535);
        scale_scalar_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
            x.data_ptr<float>(), inv.data_ptr<float>(), y.data_ptr<float>(), total, C, S);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

rms_norm_cpp_source = "torch::Tensor rms_norm_cuda(torch::Tensor x, double eps);"

rms_norm_ext = load_inline(
    name="rms_norm_two_kernel_inv_rms_then_scale_ext",
    cpp_sources=rms_norm_cpp_source,
    cuda_sources=rms_norm_source,
    functions=["rms_norm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm_ext.rms_norm_cuda(x, self.eps)
