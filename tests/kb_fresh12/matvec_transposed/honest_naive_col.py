# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matvec_t_naive_cuda(torch::Tensor A, torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: one thread per output column j; the thread walks all M rows of A computing
// y[j] = sum_i A[i, j] * x[i]. Neighbouring threads read neighbouring columns, so the loads
// are coalesced, but only N threads are launched.

__global__ void matvec_t_naive_kernel(const float* A, const float* x, float* y, int M, int N) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= N) return;
    float acc = 0.f;
    for (int i = 0; i < M; ++i) acc += A[(long long)i * N + j] * x[i];
    y[j] = acc;
}

torch::Tensor matvec_t_naive_cuda(torch::Tensor A, torch::Tensor x) {
    TORCH_CHECK(A.is_cuda() && x.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && x.dim() == 1, "A must be 2D and x 1D");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && x.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.size(0) == x.size(0), "size mismatch");
    auto Ac = A.contiguous();
    auto xc = x.contiguous();
    int M = (int)Ac.size(0), N = (int)Ac.size(1);
    auto y = torch::empty({N}, Ac.options());
    if (N == 0) return y;
    const int threads = 128;
    matvec_t_naive_kernel<<<(N + threads - 1) / threads, threads>>>(
        Ac.data_ptr<float>(), xc.data_ptr<float>(), y.data_ptr<float>(), M, N);
    return y;
}
"""

mv_mod = load_inline(
    name="kbf12_matvec_t_naive_col",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["matvec_t_naive_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return mv_mod.matvec_t_naive_cuda(A, x)
