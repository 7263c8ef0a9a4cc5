# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor vec3_normalize_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: vectorised AoS access. Four 3-vectors are 12 floats = exactly three float4, so each thread
// loads three 128-bit words, normalises four rows in registers and stores three 128-bit words.
// The last n % 4 rows are done by extra threads with scalar code; misaligned pointers use a scalar kernel.

__device__ __forceinline__ void norm3(float& a, float& b, float& c, float eps) {
    float inv = 1.0f / fmaxf(sqrtf(a * a + b * b + c * c), eps);
    a *= inv; b *= inv; c *= inv;
}

__global__ void vec3_norm_float4_kernel(const float4* __restrict__ x4, float4* __restrict__ out4,
                                        const float* __restrict__ x, float* __restrict__ out,
                                        int64_t n, float eps) {
    const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t groups = n >> 2;           // full groups of 4 rows
    if (t < groups) {
        float4 p = __ldg(x4 + 3 * t + 0);    // a0 b0 c0 a1
        float4 q = __ldg(x4 + 3 * t + 1);    // b1 c1 a2 b2
        float4 r = __ldg(x4 + 3 * t + 2);    // c2 a3 b3 c3
        norm3(p.x, p.y, p.z, eps);
        norm3(p.w, q.x, q.y, eps);
        norm3(q.z, q.w, r.x, eps);
        norm3(r.y, r.z, r.w, eps);
        out4[3 * t + 0] = p;
        out4[3 * t + 1] = q;
        out4[3 * t + 2] = r;
    } else {
        const int64_t row = groups * 4 + (t - groups);
        if (row < n) {
            float a = x[3 * row + 0], b = x[3 * row + 1], c = x[3 * row + 2];
            norm3(a, b, c, eps);
            out[3 * row + 0] = a;
            out[3 * row + 1] = b;
            out[3 * row + 2] = c;
        }
    }
}

__global__ void vec3_norm_scalar_kernel(const float* __restrict__ x, float* __restrict__ out,
                                        int64_t n, float eps) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[3 * i + 0], b = x[3 * i + 1], c = x[3 * i + 2];
    norm3(a, b, c, eps);
    out[3 * i + 0] = a;
    out[3 * i + 1] = b;
    out[3 * i + 2] = c;
}

torch::Tensor vec3_normalize_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2 && x.size(1) == 3, "x must have shape (n, 3)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int64_t n = xc.size(0);
    if (n == 0) return out;
    const float* xp = xc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const int threads = 256;
    bool aligned = (reinterpret_cast<uintptr_t>(xp) % 16 == 0) && (reinterpret_cast<uintptr_t>(op) % 16 == 0);
    if (aligned) {
        int64_t groups = n / 4;
        int64_t work = groups + (n - groups * 4);
        int64_t blocks = (work + threads - 1) / threads;
        vec3_norm_float4_kernel<<<(unsigned int)blocks, threads>>>(
            reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(op), xp, op, n, 1e-12f);
    } else {
        int64_t blocks = (n + threads - 1) / threads;
        vec3_norm_scalar_kernel<<<(unsigned int)blocks, threads>>>(xp, op, n, 1e-12f);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_vec3_norm_float4_four_rows",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["vec3_normalize_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.vec3_normalize_cuda(x)
