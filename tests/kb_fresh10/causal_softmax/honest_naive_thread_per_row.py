# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor causal_softmax_cuda(torch::Tensor scores, double scale);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
// Naive: one thread per query row, three serial passes over the unmasked prefix j <= q
// (max, sum of exponentials, normalised write), then zeros for the masked tail.

__global__ void causal_softmax_naive_kernel(const float* __restrict__ x, float* __restrict__ out,
                                            long long rows, int S, float scale) {
    const long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const int q = (int)(row % S);
    const float* xr = x + row * (long long)S;
    float* orow = out + row * (long long)S;
    float m = -INFINITY;
    for (int j = 0; j <= q; ++j) m = fmaxf(m, xr[j] * scale);
    float sum = 0.f;
    for (int j = 0; j <= q; ++j) sum += expf(xr[j] * scale - m);
    const float inv = 1.f / sum;
    for (int j = 0; j <= q; ++j) orow[j] = expf(xr[j] * scale - m) * inv;
    for (int j = q + 1; j < S; ++j) orow[j] = 0.f;
}

torch::Tensor causal_softmax_cuda(torch::Tensor scores, double scale) {
    TORCH_CHECK(scores.is_cuda(), "scores must be a CUDA tensor");
    TORCH_CHECK(scores.scalar_type() == torch::kFloat32, "scores must be float32");
    TORCH_CHECK(scores.dim() >= 2 && scores.size(-1) == scores.size(-2), "scores must be [..., S, S]");
    auto xc = scores.contiguous();
    auto out = torch::empty_like(xc);
    if (xc.numel() == 0) return out;
    const int S = (int)xc.size(-1);
    const long long rows = xc.numel() / S;
    const int threads = 128;
    causal_softmax_naive_kernel<<<(unsigned)((rows + threads - 1) / threads), threads>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), rows, S, (float)scale);
    return out;
}
"""

my_mod = load_inline(
    name="cs_naive_thread_per_row_s44",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["causal_softmax_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        return my_mod.causal_softmax_cuda(scores, float(self.scale))
