# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor min_sq_dist_cuda(torch::Tensor points, torch::Tensor centroids);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>
// Strategy: norm expansion ||x - c||^2 = ||x||^2 - 2 x.c + ||c||^2, so each centroid costs one FMA per
// dimension. Each thread owns two points (register blocking: every centroid value read from shared
// memory feeds two FMAs); centroids are staged in shared memory in chunks together with their squared
// norms (computed in-kernel), read back as float4 broadcasts. ||x||^2 is added once at the end and the
// result clamped at 0. Direct global-memory kernel as fallback for unsupported d / alignment.

#define SMEM_FLOATS 8192
#define MAX_CHUNK 512

template <int D>
__global__ void __launch_bounds__(256)
min_sq_dist_expand_kernel(const float* __restrict__ P,
                          const float* __restrict__ C,
                          float* __restrict__ out,
                          int64_t n, int k) {
    static_assert(D >= 16 && (D & (D - 1)) == 0, "D must be a power of two >= 16");
    __shared__ __align__(16) float sC[SMEM_FLOATS];
    __shared__ float sN[MAX_CHUNK];
    const int64_t i0 = (int64_t)blockIdx.x * (2 * blockDim.x) + threadIdx.x;
    const int64_t i1 = i0 + blockDim.x;
    const bool v0 = i0 < n, v1 = i1 < n;

    float p0[D], p1[D];
    float xn0 = 0.0f, xn1 = 0.0f;
    {
        const float4* s0 = reinterpret_cast<const float4*>(P + (v0 ? i0 : 0) * D);
        const float4* s1 = reinterpret_cast<const float4*>(P + (v1 ? i1 : 0) * D);
#pragma unroll
        for (int q = 0; q < D / 4; ++q) {
            float4 a = v0 ? __ldg(s0 + q) : make_float4(0.f, 0.f, 0.f, 0.f);
            float4 b = v1 ? __ldg(s1 + q) : make_float4(0.f, 0.f, 0.f, 0.f);
            p0[4 * q + 0] = a.x; p0[4 * q + 1] = a.y; p0[4 * q + 2] = a.z; p0[4 * q + 3] = a.w;
            p1[4 * q + 0] = b.x; p1[4 * q + 1] = b.y; p1[4 * q + 2] = b.z; p1[4 * q + 3] = b.w;
        }
#pragma unroll
        for (int t = 0; t < D; ++t) { xn0 = fmaf(p0[t], p0[t], xn0); xn1 = fmaf(p1[t], p1[t], xn1); }
    }

    const int chunk = SMEM_FLOATS / D;        // <= MAX_CHUNK for D >= 16
    float best0 = FLT_MAX, best1 = FLT_MAX;   // min over c of (||c||^2 - 2 x.c)
    for (int jc = 0; jc < k; jc += chunk) {
        const int cnt = min(chunk, k - jc);
        const int nel = cnt * D;
        const float* src = C + (int64_t)jc * D;
        for (int e = threadIdx.x; e < nel; e += blockDim.x) sC[e] = __ldg(src + e);
        __syncthreads();
        for (int jj = threadIdx.x; jj < cnt; jj += blockDim.x) {
            float s = 0.0f;
            // rotated start (t + jj) % D keeps the 32 lanes on different banks
            for (int t = 0; t < D; ++t) { float c = sC[jj * D + ((t + jj) & (D - 1))]; s = fmaf(c, c, s); }
            sN[jj] = s;
        }
        __syncthreads();
        for (int jj = 0; jj < cnt; ++jj) {
            const float4* c4 = reinterpret_cast<const float4*>(sC + jj * D);
            float a0 = 0.0f, a1 = 0.0f;
#pragma unroll
            for (int q = 0; q < D / 4; ++q) {
                float4 c = c4[q];
                a0 = fmaf(p0[4 * q + 0], c.x, a0); a1 = fmaf(p1[4 * q + 0], c.x, a1);
                a0 = fmaf(p0[4 * q + 1], c.y, a0); a1 = fmaf(p1[4 * q + 1], c.y, a1);
                a0 = fmaf(p0[4 * q + 2], c.z, a0); a1 = fmaf(p1[4 * q + 2], c.z, a1);
                a0 = fmaf(p0[4 * q + 3], c.w, a0); a1 = fmaf(p1[4 * q + 3], c.w, a1);
            }
            const float cn = sN[jj];
            best0 = fminf(best0, fmaf(-2.0f, a0, cn));
            best1 = fminf(best1, fmaf(-2.0f, a1, cn));
        }
        __syncthreads();   // sC / sN are overwritten by the next chunk
    }
    if (v0) out[i0] = fmaxf(xn0 + best0, 0.0f);
    if (v1) out[i1] = fmaxf(xn1 + best1, 0.0f);
}

__global__ void min_sq_dist_global_kernel(const float* __restrict__ P,
                                          const float* __restrict__ C,
                                          float* __restrict__ out,
                                          int64_t n, int k, int d) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float* p = P + i * d;
    float best = FLT_MAX;
    for (int j = 0; j < k; ++j) {
        const float* c = C + (int64_t)j * d;
        float s = 0.0f;
        for (int t = 0; t < d; ++t) {
            float diff = __ldg(p + t) - __ldg(c + t);
            s = fmaf(diff, diff, s);
        }
        best = fminf(best, s);
    }
    out[i] = best;
}

torch::Tensor min_sq_dist_cuda(torch::Tensor points, torch::Tensor centroids) {
    TORCH_CHECK(points.is_cuda() && centroids.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(points.scalar_type() == torch::kFloat32 && centroids.scalar_type() == torch::kFloat32, "float32 expected");
    TORCH_CHECK(points.dim() == 2 && centroids.dim() == 2 && points.size(1) == centroids.size(1), "shape mismatch");
    auto P = points.contiguous();
    auto C = centroids.contiguous();
    int64_t n = P.size(0);
    int k = (int)C.size(0);
    int d = (int)P.size(1);
    auto out = torch::empty({n}, P.options());
    if (n == 0) return out;
    const float* pp = P.data_ptr<float>();
    const float* cp = C.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const bool aligned = (reinterpret_cast<uintptr_t>(pp) & 15) == 0;
    const bool templ = (d == 16 || d == 32 || d == 64);
    if (aligned && templ) {
        const int threads = 256;
        const int64_t per_block = 2 * threads;
        unsigned int blocks = (unsigned int)((n + per_block - 1) / per_block);
        if (d == 32)      min_sq_dist_expand_kernel<32><<<blocks, threads>>>(pp, cp, op, n, k);
        else if (d == 16) min_sq_dist_expand_kernel<16><<<blocks, threads>>>(pp, cp, op, n, k);
        else              min_sq_dist_expand_kernel<64><<<blocks, threads>>>(pp, cp, op, n, k);
    } else {
        const int threads = 256;
        unsigned int blocks = (unsigned int)((n + threads - 1) / threads);
        min_sq_dist_global_kernel<<<blocks, threads>>>(pp, cp, op, n, k, d);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_min_sq_dist_norm_expansion_2pt_float4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["min_sq_dist_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, points: torch.Tensor, centroids: torch.Tensor) -> torch.Tensor:
        return my_mod.min_sq_dist_cuda(points, centroids)
