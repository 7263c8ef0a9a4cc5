# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Vectorised single pass: each thread owns 4 consecutive l positions of one batch and streams
# the C axis with 128-bit __ldg loads, unrolled 4 channels deep with two independent float4
# accumulators for memory-level parallelism.  Used only when L % 4 == 0 and both pointers are
# 16-byte aligned; otherwise a scalar one-thread-per-output kernel is launched.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define THREADS 256

__device__ __forceinline__ void sq_acc(float4& s, const float4 v) {
    s.x = fmaf(v.x, v.x, s.x);
    s.y = fmaf(v.y, v.y, s.y);
    s.z = fmaf(v.z, v.z, s.z);
    s.w = fmaf(v.w, v.w, s.w);
}

__global__ void l2norm_dim1_vec4_kernel(const float4* __restrict__ x,
                                        float4* __restrict__ out,
                                        int C, int L4, long long total4) {
    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total4) return;
    const int b = (int)(idx / L4);
    const int l4 = (int)(idx % L4);
    const float4* p = x + (long long)b * C * L4 + l4;
    const long long stride = L4;

    float4 s0 = make_float4(0.f, 0.f, 0.f, 0.f);
    float4 s1 = make_float4(0.f, 0.f, 0.f, 0.f);
    int c = 0;
    for (; c + 4 <= C; c += 4) {
        const float4 v0 = __ldg(p + (long long)(c + 0) * stride);
        const float4 v1 = __ldg(p + (long long)(c + 1) * stride);
        const float4 v2 = __ldg(p + (long long)(c + 2) * stride);
        const float4 v3 = __ldg(p + (long long)(c + 3) * stride);
        sq_acc(s0, v0);
        sq_acc(s1, v1);
        sq_acc(s0, v2);
        sq_acc(s1, v3);
    }
    for (; c < C; ++c) {
        sq_acc(s0, __ldg(p + (long long)c * stride));
    }
    float4 r;
    r.x = sqrtf(s0.x + s1.x);
    r.y = sqrtf(s0.y + s1.y);
    r.z = sqrtf(s0.z + s1.z);
    r.w = sqrtf(s0.w + s1.w);
    out[idx] = r;
}

__global__ void l2norm_dim1_scalar_kernel(const float* __restrict__ x,
                                          float* __restrict__ out,
                                          int C, int L, long long total) {
    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    const int b = (int)(idx / L);
    const int l = (int)(idx % L);
    const float* p = x + (long long)b * C * L + l;
    float s = 0.0f;
    for (int c = 0; c < C; ++c) {
        const float v = __ldg(p + (long long)c * L);
        s = fmaf(v, v, s);
    }
    out[idx] = sqrtf(s);
}

torch::Tensor l2norm_dim1_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be (B, C, L)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    const int B = (int)x.size(0), C = (int)x.size(1), L = (int)x.size(2);
    auto out = torch::empty({B, L}, x.options());
    const long long total = (long long)B * L;
    if (total == 0) return out;

    const float* xp = x.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const bool vec_ok = (L % 4 == 0) &&
                        (reinterpret_cast<uintptr_t>(xp) % 16 == 0) &&
                        (reinterpret_cast<uintptr_t>(op) % 16 == 0);
    if (vec_ok) {
        const long long total4 = total / 4;
        const long long blocks = (total4 + THREADS - 1) / THREADS;
        l2norm_dim1_vec4_kernel<<<(unsigned int)blocks, THREADS>>>(
            reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(op), C, L / 4, total4);
    } else {
        const long long blocks = (total + THREADS - 1) / THREADS;
        l2norm_dim1_scalar_kernel<<<(unsigned int)blocks, THREADS>>>(xp, op, C, L, total);
    }
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "l2norm_dim1 kernel launch failed");
    return out;
}
"""

cpp_source = "torch::Tensor l2norm_dim1_cuda(torch::Tensor x);"

l2norm_ext = load_inline(
    name="l2norm_dim1_float4_ilp",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["l2norm_dim1_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l2norm_ext.l2norm_dim1_cuda(x)
