# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor transpose_add_naive(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per output element, flat 1D indexing.
// Writes and x[i][j] reads are coalesced; the transposed read x[j][i] is strided by N.
__global__ void transpose_add_naive_kernel(const float* __restrict__ x, float* __restrict__ y, int N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * N;
    if (idx >= total) return;
    long long i = idx / N;
    long long j = idx - i * N;
    y[idx] = x[idx] + x[j * N + i];
}

torch::Tensor transpose_add_naive(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2 && x.size(0) == x.size(1), "x must be square");
    x = x.contiguous();
    const int N = (int)x.size(0);
    auto y = torch::empty_like(x);
    long long total = (long long)N * N;
    if (total == 0) return y;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    transpose_add_naive_kernel<<<(unsigned int)blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), N);
    return y;
}
"""

module = load_inline(
    name="transpose_add_naive_linear",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["transpose_add_naive"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return module.transpose_add_naive(x)
