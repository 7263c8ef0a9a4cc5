# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cumsum0_naive_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: one thread per column, walking all rows serially and writing the running sum.
// Adjacent threads touch adjacent columns, so each row access is coalesced.

__global__ void cumsum0_naive_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     int R, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float acc = 0.f;
    for (int r = 0; r < R; ++r) {
        size_t i = (size_t)r * C + c;
        acc += x[i];
        y[i] = acc;
    }
}

torch::Tensor cumsum0_naive_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int R = (int)xc.size(0);
    int C = (int)xc.size(1);
    if (R == 0 || C == 0) return out;
    const int threads = 256;
    int blocks = (C + threads - 1) / threads;
    cumsum0_naive_kernel<<<blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(), R, C);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_cumsum0_naive_col_serial",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cumsum0_naive_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.cumsum0_naive_cuda(x)
