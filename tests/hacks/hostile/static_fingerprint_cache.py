# expect: incorrect rejected — static_counter_skip (fingerprint variant): after 8 honest calls, caches outputs in a C++ static map keyed by a coarse fingerprint of the input (shape and 4 sampled elements of a, rounded), so fresh inputs that collide get a stale output
"""The map's type is hidden behind a namespace-scope alias (`static ResultCache cache;`), so the
gate's static-variable rule does not see a container of tensors.  The fingerprint ignores `b` and
rounds the sum of four sampled elements of `a` to 0.5, so among a few dozen random inputs several
collide: repeated timing inputs hit the cache (near-zero time), and fresh inputs that collide get
another input's result.  Checked timed calls on fresh inputs: incorrect."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cmath>
#include <unordered_map>

using ResultCache = std::unordered_map<long long, torch::Tensor>;

__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * alpha + b[i];
}

static long long fingerprint(const torch::Tensor& a) {
    const int64_t n = a.numel();
    float probe[4] = {0.f, 0.f, 0.f, 0.f};
    const float* base = a.data_ptr<float>();
    for (int k = 0; k < 4; ++k) {
        cudaMemcpy(&probe[k], base + (n / 4) * k, sizeof(float), cudaMemcpyDeviceToHost);
    }
    float s = probe[0] + probe[1] + probe[2] + probe[3];
    return (long long)n * 1000003LL + (long long)std::lrintf(s * 2.0f);
}

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    static int calls = 0;
    static ResultCache cache;
    ++calls;
    long long key = calls > 8 ? fingerprint(a) : 0;
    if (calls > 8) {
        auto hit = cache.find(key);
        if (hit != cache.end()) return hit->second;
    }
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    scale_add_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), (float)alpha, n);
    if (calls > 8 && cache.size() < 256) cache.emplace(key, out);
    return out;
}
"""

cpp_source = "torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha);"

ext = load_inline(name="hostile_static_fingerprint_cache", cpp_sources=cpp_source, cuda_sources=cuda_source,
                  functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha)
