# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rms_norm_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

// Each thread handles 4 consecutive pixels of one batch item with float4 loads/stores
// (requires S % 4 == 0 and a 16-byte aligned pointer). Sum of squares over channels
// in four independent accumulators, then a second pass scales and stores.
__global__ void rms_norm_vec4_kernel(const float4* __restrict__ x, float4* __restrict__ y,
                                     int64_t N, int64_t C, int64_t S4, float eps) {
    const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= N * S4) return;
    const int64_t n = idx / S4;
    const int64_t s4 = idx % S4;
    const int64_t offset = n * C * S4 + s4;

    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    #pragma unroll 8
    for (int64_t c = 0; c < C; ++c) {
        const float4 v = __ldg(&x[offset + c * S4]);
        acc.x += v.x * v.x;
        acc.y += v.y * v.y;
        acc.z += v.z * v.z;
        acc.w += v.w * v.w;
    }
    const float invC = 1.0f / (float)C;
    float4 inv;
    inv.x = rsqrtf(acc.x * invC + eps);
    inv.y = rsqrtf(acc.y * invC + eps);
    inv.z = rsqrtf(acc.z * invC + eps);
    inv.w = rsqrtf(acc.w * invC + eps);

    #pragma unroll 8
    for (int64_t c = 0; c < C; ++c) {
        float4 v = __ldg(&x[offset + c * S4]);
        v.x *= inv.x;
        v.y *= inv.y;
        v.z *= inv.z;
        v.w *= inv.w;
        y[offset + c * S4] = v;
    }
}

// Scalar fallback when the spatial size is not a multiple of 4.
__global__ void rms_norm_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                       int64_t N, int64_t C, int64_t S, float eps) {
    const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= N * S) return;
    const int64_t n = idx / S;
    const int64_t s = idx % S;
    const int64_t offset = n * C * S + s;
    float acc = 0.0f;
    for (int64_t c = 0; c < C; ++c) {
        const float v = x[offset + c * S];
        acc += v * v;
    }
    const float inv = rsqrtf(acc / (float)C + eps);
    for (int64_t c = 0; c < C; ++c) y[offset + c * S] = x[offset + c * S] * inv;
}

torch::Tensor rms_norm_cuda(torch::Tensor x, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 2, "x must have a feature dimension");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    if (x.numel() == 0) return y;
    const int64_t N = x.size(0);
    const int64_t C = x.size(1);
    const int64_t S = x.numel() / (N * C);
    auto stream = at::cuda::getCurrentCUDAStream();
    const int threads = 128;

    const bool aligned = (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(y.data_ptr<float>()) % 16 == 0);
    if (S % 4 == 0 && aligned) {
        const int64_t S4 = S / 4;
        const int64_t work = N * S4;
        const int64_t blocks = (work + threads - 1) / threads;
        rms_norm_vec4_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
            reinterpret_cast<const float4*>(x.data_ptr<float>()),
            reinterpret_cast<float4*>(y.data_ptr<float>()), N, C, S4, (float)eps);
    } else {
        const int64_t work = N * S;
        const int64_t blocks = (work + threads - 1) / threads;
        rms_norm_scalar_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
            x.data_ptr<float>(), y.data_ptr<float>(), N, C, S, (float)eps);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

rms_norm_cpp_source = "torch::Tensor rms_norm_cuda(torch::Tensor x, double eps);"

rms_norm_ext = load_inline(
    name="rms_norm_float4_four_pixels_per_thread_ext",
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
