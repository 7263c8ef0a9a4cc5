# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor vec3_normalize_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: persistent grid sized from the occupancy API, grid-stride over groups of 4 rows
// (3 x float4 = 12 floats). Each iteration a thread handles two groups (6 independent 128-bit loads in
// flight), using streaming cache hints (__ldcs / __stcs) since every byte is touched once, and
// rsqrtf with an eps-squared guard instead of sqrt + divide. Tail rows (n % 4) done by one small
// scalar pass inside the same kernel; scalar kernel if pointers are misaligned.

__device__ __forceinline__ float inv_norm(float a, float b, float c, float eps) {
    float s = fmaf(a, a, fmaf(b, b, c * c));
    // 1 / max(sqrt(s), eps)
    return (s > eps * eps) ? rsqrtf(s) : (1.0f / eps);
}

__device__ __forceinline__ void norm_group(float4& p, float4& q, float4& r, float eps) {
    float f;
    f = inv_norm(p.x, p.y, p.z, eps); p.x *= f; p.y *= f; p.z *= f;
    f = inv_norm(p.w, q.x, q.y, eps); p.w *= f; q.x *= f; q.y *= f;
    f = inv_norm(q.z, q.w, r.x, eps); q.z *= f; q.w *= f; r.x *= f;
    f = inv_norm(r.y, r.z, r.w, eps); r.y *= f; r.z *= f; r.w *= f;
}

__global__ void __launch_bounds__(256)
vec3_norm_persistent_kernel(const float4* __restrict__ x4, float4* __restrict__ out4,
                            const float* __restrict__ x, float* __restrict__ out,
                            int64_t n, float eps) {
    const int64_t groups = n >> 2;
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;

    int64_t g = tid;
    for (; g + stride < groups; g += 2 * stride) {
        const int64_t h = g + stride;
        float4 p0 = __ldcs(x4 + 3 * g + 0);
        float4 q0 = __ldcs(x4 + 3 * g + 1);
        float4 r0 = __ldcs(x4 + 3 * g + 2);
        float4 p1 = __ldcs(x4 + 3 * h + 0);
        float4 q1 = __ldcs(x4 + 3 * h + 1);
        float4 r1 = __ldcs(x4 + 3 * h + 2);
        norm_group(p0, q0, r0, eps);
        norm_group(p1, q1, r1, eps);
        __stcs(out4 + 3 * g + 0, p0);
        __stcs(out4 + 3 * g + 1, q0);
        __stcs(out4 + 3 * g + 2, r0);
        __stcs(out4 + 3 * h + 0, p1);
        __stcs(out4 + 3 * h + 1, q1);
        __stcs(out4 + 3 * h + 2, r1);
    }
    if (g < groups) {
        float4 p0 = __ldcs(x4 + 3 * g + 0);
        float4 q0 = __ldcs(x4 + 3 * g + 1);
        float4 r0 = __ldcs(x4 + 3 * g + 2);
        norm_group(p0, q0, r0, eps);
        __stcs(out4 + 3 * g + 0, p0);
        __stcs(out4 + 3 * g + 1, q0);
        __stcs(out4 + 3 * g + 2, r0);
    }
    // tail rows (fewer than 4)
    const int64_t row = groups * 4 + tid;
    if (row < n) {
        float a = x[3 * row + 0], b = x[3 * row + 1], c = x[3 * row + 2];
        float f = inv_norm(a, b, c, eps);
        out[3 * row + 0] = a * f;
        out[3 * row + 1] = b * f;
        out[3 * row + 2] = c * f;
    }
}

__global__ void vec3_norm_scalar_kernel(const float* __restrict__ x, float* __restrict__ out,
                                        int64_t n, float eps) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[3 * i + 0], b = x[3 * i + 1], c = x[3 * i + 2];
    float f = inv_norm(a, b, c, eps);
    out[3 * i + 0] = a * f;
    out[3 * i + 1] = b * f;
    out[3 * i + 2] = c * f;
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
    const float eps = 1e-12f;
    bool aligned = (reinterpret_cast<uintptr_t>(xp) % 16 == 0) && (reinterpret_cast<uintptr_t>(op) % 16 == 0);
    if (!aligned) {
        int64_t blocks = (n + threads - 1) / threads;
        vec3_norm_scalar_kernel<<<(unsigned int)blocks, threads>>>(xp, op, n, eps);
        return out;
    }
    int dev = 0;
    cudaGetDevice(&dev);
    int sms = 1;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    int occ = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, vec3_norm_persistent_kernel, threads, 0);
    if (occ < 1) occ = 1;
    int64_t groups = n / 4;
    int64_t needed = (groups + threads - 1) / threads;   // one group per thread at most
    if (needed < 1) needed = 1;                          // at least one block for the tail rows
    int64_t cap = (int64_t)sms * occ;
    int blocks = (int)(needed < cap ? needed : cap);
    vec3_norm_persistent_kernel<<<blocks, threads>>>(reinterpret_cast<const float4*>(xp),
                                                     reinterpret_cast<float4*>(op), xp, op, n, eps);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_vec3_norm_persistent_float4_stream",
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
