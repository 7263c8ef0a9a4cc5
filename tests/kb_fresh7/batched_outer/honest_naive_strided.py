# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor batched_outer_naive_strided(torch::Tensor a, torch::Tensor b);"

cuda_src = r'''
#include <cuda_runtime.h>

// One thread per output element; the fastest-varying thread index walks the
// row dimension i, so neighbouring threads write addresses N floats apart.
__global__ void outer_naive_strided_kernel(const float* a, const float* b, float* out,
                                           long long B, long long M, long long N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = B * M * N;
    if (idx >= total) return;
    long long i = idx % M;
    long long j = (idx / M) % N;
    long long bb = idx / (M * N);
    out[(bb * M + i) * N + j] = a[bb * M + i] * b[bb * N + j];
}

torch::Tensor batched_outer_naive_strided(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(0) == b.size(0), "expected a (B,M), b (B,N)");
    a = a.contiguous();
    b = b.contiguous();
    long long B = a.size(0), M = a.size(1), N = b.size(1);
    auto out = torch::empty({B, M, N}, a.options());
    long long total = B * M * N;
    if (total == 0) return out;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    outer_naive_strided_kernel<<<(unsigned int)blocks, threads>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), B, M, N);
    return out;
}
'''

batched_outer_naive_strided_mod = load_inline(
    name="batched_outer_naive_strided",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["batched_outer_naive_strided"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return batched_outer_naive_strided_mod.batched_outer_naive_strided(a, b)
