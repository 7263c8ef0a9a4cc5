# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor min_sq_dist_cuda(torch::Tensor points, torch::Tensor centroids);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>
// Strategy: naive, one thread per point; loops over all centroids and all dimensions reading both the
// point and the centroid straight from global memory (direct (x - c)^2 sum), keeps the running minimum.

__global__ void min_sq_dist_naive_kernel(const float* __restrict__ P,
                                         const float* __restrict__ C,
                                         float* __restrict__ out,
                                         int64_t n, int k, int d) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float* p = P + i * d;
    float best = FLT_MAX;
    for (int j = 0; j < k; ++j) {
        const float* c = C + (int64_t)j * d;
        float s = 0.0f;
        for (int t = 0; t < d; ++t) {
            float diff = p[t] - c[t];
            s += diff * diff;
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
    int64_t blocks = (n + threads - 1) / threads;
    min_sq_dist_naive_kernel<<<(unsigned int)blocks, threads>>>(P.data_ptr<float>(), C.data_ptr<float>(),
                                                              out.data_ptr<float>(), n, k, d);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_min_sq_dist_naive_thread_per_point",
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
