# expect: timeout — long_compile: the C++ side computes a "tuning table" with constexpr evaluation, 200 template instantiations of about 3 s of g++ time each (every one under g++'s constexpr limits, no flag raised), so the build runs for about 10 minutes and then succeeds; the builds after it must still succeed
"""No compiler flag is needed (the gate only allows a fixed set): `TuneTable<200>` instantiates 200
static members, each a separate constant expression of 800k loop iterations, below g++'s default
`-fconstexpr-loop-limit` (262144 per loop) and `-fconstexpr-ops-limit`.  The table folds to 1 (the
unroll factor), so the kernel, if the build were ever allowed to finish, is the honest one.
Measured: about 3.1 s of g++ 12 time per instantiation on a laptop-class core.  Memory stays small."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

template <int UNROLL>
__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {
    int64_t base = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) * UNROLL;
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
        int64_t i = base + u;
        if (i < n) out[i] = a[i] * alpha + b[i];
    }
}

torch::Tensor scale_add_launch(torch::Tensor a, torch::Tensor b, double alpha, int64_t unroll) {
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    int64_t threads = 256, per_block = threads * 1;
    scale_add_kernel<1><<<(unsigned)((n + per_block - 1) / per_block), (unsigned)threads, 0,
                          at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), (float)alpha, n);
    return out;
}
"""

cpp_source = """
torch::Tensor scale_add_launch(torch::Tensor a, torch::Tensor b, double alpha, int64_t unroll);

// Tuning table for the unroll factor, folded at compile time.
constexpr unsigned long long mix_round(unsigned long long seed, unsigned iters) {
    unsigned long long h = seed;
    for (unsigned i = 0; i < iters; ++i) h = h * 6364136223846793005ULL + 1442695040888963407ULL;
    return h;
}

constexpr unsigned long long mix(unsigned long long seed) {
    unsigned long long h = seed;
    for (unsigned j = 0; j < 4; ++j) h ^= mix_round(h + j, 200000);
    return h;
}

template <int I>
struct TuneTable {
    static constexpr unsigned long long value = mix(I) ^ TuneTable<I - 1>::value;
};

template <>
struct TuneTable<0> {
    static constexpr unsigned long long value = 0x9e3779b97f4a7c15ULL;
};

constexpr int kUnroll = (int)(TuneTable<200>::value & 0ULL) + 1;
static_assert(kUnroll == 1, "the tuned unroll factor is 1 on this GPU");

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    return scale_add_launch(a, b, alpha, kUnroll);
}
"""

ext = load_inline(name="hostile_long_compile", cpp_sources=cpp_source, cuda_sources=cuda_source,
                  functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha)
