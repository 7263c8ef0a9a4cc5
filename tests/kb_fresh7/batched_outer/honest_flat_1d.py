# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor batched_outer_flat_1d(torch::Tensor a, torch::Tensor b);"

cuda_src = r'''
#include <cuda_runtime.h>

// One thread per output, flat row-major index so writes are coalesced.
// Since a is (B, M) contiguous, the flattened row index bb*M + i indexes a directly.
__global__ void outer_flat_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                  float* __restrict__ out, long long rows, int M, int N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = rows * (long long)N;
    if (idx >= total) return;
    long long row = idx / N;          // bb * M + i
    int j = (int)(idx - row * N);
    long long bb = row / M;
    out[idx] = a[row] * b[bb * N + j];
}

torch::Tensor batched_outer_flat_1d(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(0) == b.size(0), "expected a (B,M), b (B,N)");
    a = a.contiguous();
    b = b.contiguous();
    long long B = a.size(0), M = a.size(1), N = b.size(1);
    auto out = torch::empty({B, M, N}, a.options());
    long long total = B * M * N;
    if (total == 0) return out;
    const int threads = 512;
    long long blocks = (total + threads - 1) / threads;
    outer_flat_kernel<<<(unsigned int)blocks, threads>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), B * M, (int)M, (int)N);
    return out;
}
'''

batched_outer_flat_1d_mod = load_inline(
    name="batched_outer_flat_1d",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["batched_outer_flat_1d"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return batched_outer_flat_1d_mod.batched_outer_flat_1d(a, b)
