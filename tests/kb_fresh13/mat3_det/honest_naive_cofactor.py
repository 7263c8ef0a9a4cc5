# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: one thread per matrix, nine scalar loads straight from global memory, cofactor expansion
// along the first row.

__global__ void det3_naive_kernel(const float* __restrict__ x, float* __restrict__ y, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float* a = x + i * 9;
    float det = a[0] * (a[4] * a[8] - a[5] * a[7])
              - a[1] * (a[3] * a[8] - a[5] * a[6])
              + a[2] * (a[3] * a[7] - a[4] * a[6]);
    y[i] = det;
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() >= 2 && x.size(-1) == 3 && x.size(-2) == 3, "x must have shape (..., 3, 3)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto sizes = xc.sizes().vec();
    sizes.pop_back();
    sizes.pop_back();
    auto out = torch::empty(sizes, xc.options());
    long long n = xc.numel() / 9;
    if (n == 0) return out;
    const int threads = 256;
    long long blocks = (n + threads - 1) / threads;
    det3_naive_kernel<<<(unsigned int)blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_mat3_det_naive_cofactor",
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
