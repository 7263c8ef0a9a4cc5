# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
// Strategy: naive first attempt. One thread per output element over a flat 1D grid; writes are
// coalesced but every warp reads 32 different input rows (stride = cols), so reads are scattered.
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void naive_transpose_kernel(const float* __restrict__ x, float* __restrict__ out,
                                       long long R, long long C, long long total) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    long long c = idx / R;          // output row  = input column
    long long r = idx - c * R;      // output col  = input row
    out[idx] = x[r * C + c];
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    long long R = xc.size(0);
    long long C = xc.size(1);
    auto out = torch::empty({C, R}, xc.options());
    long long total = R * C;
    if (total == 0) return out;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    TORCH_CHECK(blocks <= 2147483647LL, "tensor too large");
    naive_transpose_kernel<<<(unsigned)blocks, threads>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), R, C, total);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_transpose2d_naive_per_output",
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
