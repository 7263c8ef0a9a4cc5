# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor causal_softmax_cuda(torch::Tensor scores, double scale);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
// One 256-thread block per row: block-strided loops over the unmasked prefix, with classic
// shared-memory tree reductions for the row max and the sum of exponentials, then a strided
// write pass over the full row (normalised values for j <= q, zeros above the diagonal).

#define NT 256

__global__ void __launch_bounds__(NT) causal_softmax_block_tree_kernel(const float* __restrict__ x,
                                                                       float* __restrict__ out,
                                                                       int S, float scale) {
    __shared__ float red[NT];
    const long long row = blockIdx.x;
    const int q = (int)(row % S);
    const float* xr = x + row * (long long)S;
    float* orow = out + row * (long long)S;
    const int t = threadIdx.x;

    float m = -INFINITY;
    for (int j = t; j <= q; j += NT) m = fmaxf(m, xr[j] * scale);
    red[t] = m;
    __syncthreads();
    for (int s = NT / 2; s > 0; s >>= 1) {
        if (t < s) red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();

    float sum = 0.f;
    for (int j = t; j <= q; j += NT) sum += expf(xr[j] * scale - m);
    red[t] = sum;
    __syncthreads();
    for (int s = NT / 2; s > 0; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    const float inv = 1.f / red[0];

    for (int j = t; j < S; j += NT)
        orow[j] = (j <= q) ? expf(xr[j] * scale - m) * inv : 0.f;
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
    TORCH_CHECK(rows < 2147483647LL, "too many rows");
    causal_softmax_block_tree_kernel<<<(unsigned)rows, NT>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                             S, (float)scale);
    return out;
}
"""

my_mod = load_inline(
    name="cs_block_smem_tree_s44",
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
