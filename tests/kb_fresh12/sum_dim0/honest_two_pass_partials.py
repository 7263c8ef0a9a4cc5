# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor sum0_two_pass_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: deterministic two-pass reduction.
//   pass 1: one thread per (column, segment of SEG rows) sums its segment with four independent
//           accumulators (4 loads in flight per iteration) -> partial[seg][col]
//   pass 2: one thread per column adds up the partials of all segments in order.

#define SEG 256

__global__ void sum0_partial_kernel(const float* __restrict__ x, float* __restrict__ partial,
                                    int R, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    int s = blockIdx.y;
    int r0 = s * SEG;
    int r1 = min(r0 + SEG, R);
    float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
    int r = r0;
    for (; r + 4 <= r1; r += 4) {
        a0 += __ldg(&x[(size_t)(r + 0) * C + c]);
        a1 += __ldg(&x[(size_t)(r + 1) * C + c]);
        a2 += __ldg(&x[(size_t)(r + 2) * C + c]);
        a3 += __ldg(&x[(size_t)(r + 3) * C + c]);
    }
    for (; r < r1; ++r) a0 += __ldg(&x[(size_t)r * C + c]);
    partial[(size_t)s * C + c] = (a0 + a1) + (a2 + a3);
}

__global__ void sum0_final_kernel(const float* __restrict__ partial, float* __restrict__ out,
                                  int nseg, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float s = 0.f;
    for (int k = 0; k < nseg; ++k) s += partial[(size_t)k * C + c];
    out[c] = s;
}

torch::Tensor sum0_two_pass_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    auto xc = x.contiguous();
    int R = (int)xc.size(0);
    int C = (int)xc.size(1);
    if (R == 0 || C == 0) return torch::zeros({(long)C}, xc.options());
    auto out = torch::empty({(long)C}, xc.options());
    int nseg = (R + SEG - 1) / SEG;
    TORCH_CHECK(nseg <= 65535, "too many row segments");
    auto partial = torch::empty({(long)nseg, (long)C}, xc.options());
    const int threads = 256;
    dim3 grid((C + threads - 1) / threads, nseg);
    sum0_partial_kernel<<<grid, threads>>>(xc.data_ptr<float>(), partial.data_ptr<float>(), R, C);
    sum0_final_kernel<<<(C + threads - 1) / threads, threads>>>(partial.data_ptr<float>(),
                                                                out.data_ptr<float>(), nseg, C);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_sum0_two_pass_partials",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["sum0_two_pass_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.sum0_two_pass_cuda(x)
