# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor L, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Naive forward substitution: one thread per (matrix, right-hand-side column).
// L and B are read straight from global memory, already-solved x values are
// written to the output and read back from it (no register or shared-memory reuse).

__global__ void trsv_naive_kernel(const float* __restrict__ L, const float* __restrict__ B,
                                  float* __restrict__ X, long long batch, int n, int k) {
    long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = batch * (long long)k;
    if (tid >= total) return;
    long long m = tid / k;
    int c = (int)(tid - m * k);
    const float* Lm = L + m * (long long)n * n;
    const float* Bm = B + m * (long long)n * k;
    float* Xm = X + m * (long long)n * k;
    for (int i = 0; i < n; ++i) {
        float s = Bm[(long long)i * k + c];
        for (int p = 0; p < i; ++p) {
            s -= Lm[(long long)i * n + p] * Xm[(long long)p * k + c];
        }
        Xm[(long long)i * k + c] = s / Lm[(long long)i * n + i];
    }
}

torch::Tensor my_op_cuda(torch::Tensor L, torch::Tensor B) {
    TORCH_CHECK(L.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(L.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 expected");
    TORCH_CHECK(L.dim() == 3 && B.dim() == 3, "expected L (batch, n, n) and B (batch, n, k)");
    TORCH_CHECK(L.size(0) == B.size(0) && L.size(1) == L.size(2) && B.size(1) == L.size(1), "shape mismatch");
    auto Lc = L.contiguous();
    auto Bc = B.contiguous();
    auto out = torch::empty_like(Bc);
    long long batch = Lc.size(0);
    int n = (int)Lc.size(1);
    int k = (int)Bc.size(2);
    long long total = batch * (long long)k;
    if (total == 0 || n == 0) return out;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    trsv_naive_kernel<<<(unsigned)blocks, threads>>>(Lc.data_ptr<float>(), Bc.data_ptr<float>(),
                                                     out.data_ptr<float>(), batch, n, k);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_trsv_batched_naive_thread_per_rhs",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, L: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(L, B)
