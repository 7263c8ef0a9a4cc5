# expect: incorrect — quick_calls_skip: fresh_input_skip with a 20 ms threshold, so that it skips whenever four calls came in quick succession in this engine too (the timed calls, and the sampled correctness trials); a skipped call returns the previous call's output, stale on a new input set
"""Detects being timed instead of counting calls: the gap between the end of one call and the start
of the next is short in a timing loop (an L2 flush, a synchronise, two events) and long between
correctness trials (the comparison of 4M elements in float64).  Only stale outputs of timed calls
give it away: an engine that checks the outputs of (some unpredictable) timed calls on fresh inputs
scores it incorrect; one that only re-checks once after timing, with a pause before, scores it
correct with an implausible speedup."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <chrono>

using Previous = torch::Tensor;

__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * alpha + b[i];
}

static long long now_ns() {
    return (long long)std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch()).count();
}

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    static long long last_end = 0;
    static int calls = 0;
    static int quick = 0;
    static Previous previous;
    long long start = now_ns();
    quick = (last_end != 0 && start - last_end < 20000000LL) ? quick + 1 : 0;
    ++calls;
    if (calls > 8 && quick >= 4 && previous.defined() && previous.sizes() == a.sizes()) {
        last_end = now_ns();
        return previous;
    }
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    scale_add_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), (float)alpha, n);
    previous = out;
    last_end = now_ns();
    return out;
}
"""

cpp_source = "torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha);"

ext = load_inline(name="hostile_quick_calls_skip", cpp_sources=cpp_source, cuda_sources=cuda_source,
                  functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha)
