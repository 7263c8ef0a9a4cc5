# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor causal_softmax_cuda(torch::Tensor scores, double scale);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
// One warp per row (8 rows per 256-thread block). Pass 1 is an online softmax over j <= q: each lane
// keeps a running (max, sum) pair that is rescaled when the max grows; the 32 pairs are merged with
// xor-shuffles. Pass 2 re-reads the unmasked prefix and writes normalised values, zeros above it.

#define FULL 0xffffffffu

__global__ void causal_softmax_warp_online_kernel(const float* __restrict__ x, float* __restrict__ out,
                                                  long long rows, int S, float scale) {
    const int lane = threadIdx.x & 31;
    const long long row = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) return;   // uniform per warp
    const int q = (int)(row % S);
    const float* xr = x + row * (long long)S;
    float* orow = out + row * (long long)S;

    float m = -INFINITY, s = 0.f;
    for (int j = lane; j <= q; j += 32) {
        const float v = __ldg(xr + j) * scale;
        if (v > m) {
            s = s * __expf(m - v) + 1.f;   // m = -inf on the first element gives s = 0 * 0 + 1
            m = v;
        } else {
            s += __expf(v - m);
        }
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(FULL, m, o);
        const float s2 = __shfl_xor_sync(FULL, s, o);
        const float M = fmaxf(m, m2);
        const float a = (m == -INFINITY) ? 0.f : s * __expf(m - M);
        const float b = (m2 == -INFINITY) ? 0.f : s2 * __expf(m2 - M);
        m = M;
        s = a + b;
    }
    const float inv = 1.f / s;
    for (int j = lane; j < S; j += 32)
        orow[j] = (j <= q) ? __expf(__ldg(xr + j) * scale - m) * inv : 0.f;
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
    const int rows_per_block = 8;
    causal_softmax_warp_online_kernel<<<(unsigned)((rows + rows_per_block - 1) / rows_per_block),
                                        32 * rows_per_block>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), rows, S, (float)scale);
    return out;
}
"""

my_mod = load_inline(
    name="cs_warp_online_softmax_s44",
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
