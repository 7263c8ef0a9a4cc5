# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor min_sq_dist_cuda(torch::Tensor points, torch::Tensor centroids);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>
// Strategy: one thread per point, the point held in registers (dimension is a template parameter),
// centroids staged block-wide into shared memory in chunks; every thread of a warp reads the same
// centroid element (shared-memory broadcast). Direct (x - c)^2 accumulation, running minimum.
// Generic path for other d reads the point from global memory; naive kernel if d is huge.

#define SMEM_FLOATS 8192

template <int D>
__global__ void min_sq_dist_smem_kernel(const float* __restrict__ P,
                                        const float* __restrict__ C,
                                        float* __restrict__ out,
                                        int64_t n, int k) {
    __shared__ float sC[SMEM_FLOATS];
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = i < n;
    float p[D];
#pragma unroll
    for (int t = 0; t < D; ++t) p[t] = valid ? P[i * D + t] : 0.0f;

    const int chunk = SMEM_FLOATS / D;
    float best = FLT_MAX;
    for (int jc = 0; jc < k; jc += chunk) {
        const int cnt = min(chunk, k - jc);
        const int nel = cnt * D;
        const float* src = C + (int64_t)jc * D;
        for (int e = threadIdx.x; e < nel; e += blockDim.x) sC[e] = src[e];
        __syncthreads();
        for (int jj = 0; jj < cnt; ++jj) {
            const float* c = sC + jj * D;
            float s = 0.0f;
#pragma unroll
            for (int t = 0; t < D; ++t) {
                float diff = p[t] - c[t];
                s = fmaf(diff, diff, s);
            }
            best = fminf(best, s);
        }
        __syncthreads();
    }
    if (valid) out[i] = best;
}

// Any d <= SMEM_FLOATS: point read from global (L1), centroids from shared memory.
__global__ void min_sq_dist_smem_generic_kernel(const float* __restrict__ P,
                                                const float* __restrict__ C,
                                                float* __restrict__ out,
                                                int64_t n, int k, int d) {
    __shared__ float sC[SMEM_FLOATS];
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = i < n;
    const float* p = P + (valid ? i : 0) * d;
    const int chunk = SMEM_FLOATS / d;
    float best = FLT_MAX;
    for (int jc = 0; jc < k; jc += chunk) {
        const int cnt = min(chunk, k - jc);
        const int nel = cnt * d;
        const float* src = C + (int64_t)jc * d;
        for (int e = threadIdx.x; e < nel; e += blockDim.x) sC[e] = src[e];
        __syncthreads();
        if (valid) {
            for (int jj = 0; jj < cnt; ++jj) {
                const float* c = sC + jj * d;
                float s = 0.0f;
                for (int t = 0; t < d; ++t) {
                    float diff = __ldg(p + t) - c[t];
                    s = fmaf(diff, diff, s);
                }
                best = fminf(best, s);
            }
        }
        __syncthreads();
    }
    if (valid) out[i] = best;
}

// Very large d: everything from global memory.
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
            float diff = p[t] - c[t];
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
    if (d == 32) {
        min_sq_dist_smem_kernel<32><<<blocks, threads>>>(pp, cp, op, n, k);
    } else if (d == 16) {
        min_sq_dist_smem_kernel<16><<<blocks, threads>>>(pp, cp, op, n, k);
    } else if (d == 64) {
        min_sq_dist_smem_kernel<64><<<blocks, threads>>>(pp, cp, op, n, k);
    } else if (d >= 1 && d <= SMEM_FLOATS) {
        min_sq_dist_smem_generic_kernel<<<blocks, threads>>>(pp, cp, op, n, k, d);
    } else {
        min_sq_dist_global_kernel<<<blocks, threads>>>(pp, cp, op, n, k, d);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_min_sq_dist_smem_centroids_regs_point",
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
