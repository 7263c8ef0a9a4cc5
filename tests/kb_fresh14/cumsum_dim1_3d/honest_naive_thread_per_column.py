# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Naive: one thread per (batch, dim) column walks the whole length sequentially,
// carrying a running sum. Adjacent threads read adjacent columns, so accesses are
// coalesced, but there are only batch*dim threads and no extra memory parallelism.

__global__ void cumsum_naive_kernel(const float* __restrict__ x, float* __restrict__ y,
                                    long long ncols, int T, int D) {
    long long col = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= ncols) return;
    long long b = col / D;
    int d = (int)(col - b * D);
    const float* xp = x + b * (long long)T * D + d;
    float* yp = y + b * (long long)T * D + d;
    float s = 0.f;
    for (int t = 0; t < T; ++t) {
        s += xp[(long long)t * D];
        yp[(long long)t * D] = s;
    }
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "float32 expected");
    TORCH_CHECK(x.dim() == 3, "expected a 3-D tensor");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    long long Bn = xc.size(0);
    int T = (int)xc.size(1);
    int D = (int)xc.size(2);
    long long ncols = Bn * D;
    if (ncols == 0 || T == 0) return out;
    const int threads = 256;
    long long blocks = (ncols + threads - 1) / threads;
    cumsum_naive_kernel<<<(unsigned)blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(), ncols, T, D);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_cumsum_dim1_3d_naive_thread_per_column",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x)
