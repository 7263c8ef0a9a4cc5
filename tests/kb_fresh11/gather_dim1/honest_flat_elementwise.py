# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gather_dim1_cuda(torch::Tensor x, torch::Tensor index);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: one thread per output element over the flattened (rows, picks) output. The row is
// recovered with a 64-bit division; index reads and output writes are coalesced, the x reads are
// data-dependent.

__global__ void gather_flat_kernel(const float* __restrict__ x, const int64_t* __restrict__ idx,
                                   float* __restrict__ out, int64_t total, int64_t xcols,
                                   int64_t picks) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const int64_t r = i / picks;
    out[i] = x[r * xcols + idx[i]];
}

torch::Tensor gather_dim1_cuda(torch::Tensor x, torch::Tensor index) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(index.is_cuda(), "index must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2 && index.dim() == 2, "x and index must be 2-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(index.scalar_type() == torch::kLong, "index must be int64");
    auto xc = x.contiguous();
    auto ic = index.contiguous();
    const int64_t rows = ic.size(0);
    const int64_t picks = ic.size(1);
    const int64_t xcols = xc.size(1);
    TORCH_CHECK(rows <= xc.size(0), "index has more rows than x");
    auto out = torch::empty({rows, picks}, xc.options());
    if (rows == 0 || picks == 0) return out;
    const int64_t total = rows * picks;
    const int threads = 256;
    const int64_t blocks = (total + threads - 1) / threads;
    TORCH_CHECK(blocks <= 2147483647LL, "tensor too large");
    gather_flat_kernel<<<(unsigned int)blocks, threads>>>(
        xc.data_ptr<float>(), ic.data_ptr<int64_t>(), out.data_ptr<float>(), total, xcols, picks);
    return out;
}
"""

my_mod = load_inline(
    name="s45_gather_dim1_flat_elementwise",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gather_dim1_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        return my_mod.gather_dim1_cuda(x, index)
