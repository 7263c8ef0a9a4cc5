# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor min_sq_dist_cuda(torch::Tensor points, torch::Tensor centroids);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>
// Strategy: one warp per point, lanes split the feature dimension. For every centroid each lane
// computes its (x_t - c_t)^2 term from a coalesced centroid-row load, the warp sums them with an
// __shfl_xor_sync butterfly (all lanes end with the full distance) and keeps the running minimum.

__global__ void min_sq_dist_warp_kernel(const float* __restrict__ P,
                                        const float* __restrict__ C,
                                        float* __restrict__ out,
                                        int64_t n, int k, int d) {
    const unsigned FULL = 0xffffffffu;
    const int lane = threadIdx.x & 31;
    const int64_t w = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (w >= n) return;                     // uniform per warp
    const float* p = P + w * d;
    const bool small = d <= 32;
    const float pv = (small && lane < d) ? __ldg(p + lane) : 0.0f;
    float best = FLT_MAX;
    for (int j = 0; j < k; ++j) {
        const float* c = C + (int64_t)j * d;
        float part = 0.0f;
        if (small) {
            if (lane < d) {
                float diff = pv - __ldg(c + lane);
                part = diff * diff;
            }
        } else {
            for (int t = lane; t < d; t += 32) {
                float diff = __ldg(p + t) - __ldg(c + t);
                part = fmaf(diff, diff, part);
            }
        }
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) part += __shfl_xor_sync(FULL, part, off);
        best = fminf(best, part);
    }
    if (lane == 0) out[w] = best;
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
    const int threads = 256;                 // 8 points per block
    const int per_block = threads / 32;
    int64_t blocks = (n + per_block - 1) / per_block;
    min_sq_dist_warp_kernel<<<(unsigned int)blocks, threads>>>(P.data_ptr<float>(), C.data_ptr<float>(),
                                                             out.data_ptr<float>(), n, k, d);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_min_sq_dist_warp_per_point_shfl_reduce",
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
