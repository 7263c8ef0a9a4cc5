# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor sum0_naive_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: one thread per (column, slab of rows). Each thread loops over its slab serially and
// atomically adds its partial sum into the zero-initialised output.

#define SPLIT 32

__global__ void sum0_naive_kernel(const float* __restrict__ x, float* __restrict__ out,
                                  int R, int C, int rows_per) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    int r0 = blockIdx.y * rows_per;
    int r1 = min(r0 + rows_per, R);
    float s = 0.f;
    for (int r = r0; r < r1; ++r) s += x[(size_t)r * C + c];
    atomicAdd(&out[c], s);
}

torch::Tensor sum0_naive_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    auto xc = x.contiguous();
    int R = (int)xc.size(0);
    int C = (int)xc.size(1);
    auto out = torch::zeros({(long)C}, xc.options());
    if (R == 0 || C == 0) return out;
    int split = R < SPLIT ? R : SPLIT;
    int rows_per = (R + split - 1) / split;
    const int threads = 256;
    dim3 grid((C + threads - 1) / threads, split);
    sum0_naive_kernel<<<grid, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(), R, C, rows_per);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_sum0_naive_rowsplit_atomic",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["sum0_naive_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.sum0_naive_cuda(x)
