# expect: incorrect rejected — static_counter_skip: a C++ static call counter; after the first 8 calls (enough for the correctness trials) the launch is skipped and the previous output, kept in a static tensor behind a type alias, is returned
"""The gate rejects `static torch::Tensor` (result-cache) by reading the declared type; a `using`
alias declared at namespace scope hides it (`static OutputBuffer last;` names no tensor).  A checker
that times without checking, or checks only the first calls, scores it correct with a huge speedup;
one that checks timed calls on fresh inputs sees stale outputs: incorrect."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

using OutputBuffer = torch::Tensor;

__global__ void scale_add_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
                                 float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * alpha + b[i];
}

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    static int calls = 0;
    static OutputBuffer last;
    ++calls;
    if (calls > 8 && last.defined() && last.sizes() == a.sizes()) {
        return last;   // "warm path": the workspace already holds the result
    }
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    scale_add_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), (float)alpha, n);
    last = out;
    return out;
}
"""

cpp_source = "torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha);"

ext = load_inline(name="hostile_static_counter_skip", cpp_sources=cpp_source, cuda_sources=cuda_source,
                  functions=["scale_add"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha)
