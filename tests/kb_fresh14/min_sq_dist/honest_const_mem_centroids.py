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
// Strategy: centroids copied (device-to-device) into __constant__ memory, which serves the warp-uniform
// centroid reads as broadcasts from the constant cache. One thread per point, point loaded once into
// registers with float4 loads (template dimension), two centroids evaluated per iteration for ILP,
// direct (x - c)^2 form. Falls back to a plain global-memory kernel when the centroids do not fit or
// d is not a supported multiple of 4.

#define CONST_FLOATS 12288   // 48 KB of the 64 KB constant bank

__constant__ float c_cent[CONST_FLOATS];

template <int D>
__global__ void min_sq_dist_const_kernel(const float4* __restrict__ P4,
                                         float* __restrict__ out,
                                         int64_t n, int k) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float p[D];
    const float4* src = P4 + i * (D / 4);
#pragma unroll
    for (int q = 0; q < D / 4; ++q) {
        float4 v = __ldg(src + q);
        p[4 * q + 0] = v.x; p[4 * q + 1] = v.y; p[4 * q + 2] = v.z; p[4 * q + 3] = v.w;
    }
    float best = FLT_MAX;
    int j = 0;
    for (; j + 1 < k; j += 2) {
        const float* c0 = c_cent + j * D;
        const float* c1 = c0 + D;
        float s0 = 0.0f, s1 = 0.0f;
#pragma unroll
        for (int t = 0; t < D; ++t) {
            float d0 = p[t] - c0[t];
            float d1 = p[t] - c1[t];
            s0 = fmaf(d0, d0, s0);
            s1 = fmaf(d1, d1, s1);
        }
        best = fminf(best, fminf(s0, s1));
    }
    if (j < k) {
        const float* c0 = c_cent + j * D;
        float s0 = 0.0f;
#pragma unroll
        for (int t = 0; t < D; ++t) {
            float d0 = p[t] - c0[t];
            s0 = fmaf(d0, d0, s0);
        }
        best = fminf(best, s0);
    }
    out[i] = best;
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
    const int threads = 256;
    unsigned int blocks = (unsigned int)((n + threads - 1) / threads);
    const float* pp = P.data_ptr<float>();
    const float* cp = C.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const bool aligned = (reinterpret_cast<uintptr_t>(pp) & 15) == 0;
    const bool fits = (int64_t)k * d <= CONST_FLOATS && k > 0;
    const bool templ = (d == 16 || d == 32 || d == 64);
    if (aligned && fits && templ) {
        cudaMemcpyToSymbolAsync(c_cent, cp, (size_t)k * d * sizeof(float), 0, cudaMemcpyDeviceToDevice, 0);
        const float4* p4 = reinterpret_cast<const float4*>(pp);
        if (d == 32)      min_sq_dist_const_kernel<32><<<blocks, threads>>>(p4, op, n, k);
        else if (d == 16) min_sq_dist_const_kernel<16><<<blocks, threads>>>(p4, op, n, k);
        else              min_sq_dist_const_kernel<64><<<blocks, threads>>>(p4, op, n, k);
    } else {
        min_sq_dist_global_kernel<<<blocks, threads>>>(pp, cp, op, n, k, d);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_min_sq_dist_const_mem_centroids",
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
