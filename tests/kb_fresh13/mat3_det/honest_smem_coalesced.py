# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: each 256-thread block stages its 256 matrices (2304 floats) into shared memory with
// fully coalesced scalar loads, then every thread computes one determinant from shared memory
// (stride-9 reads are bank-conflict free because 9 is odd).

#define SM_THREADS 256

__global__ void __launch_bounds__(SM_THREADS)
det3_smem_kernel(const float* __restrict__ x, float* __restrict__ y, long long n) {
    __shared__ float s[SM_THREADS * 9];
    const long long base = (long long)blockIdx.x * SM_THREADS;
    long long rem = n - base;
    const int nm = rem < SM_THREADS ? (int)rem : SM_THREADS;
    const float* src = x + base * 9;
    const int nf = nm * 9;
    for (int t = threadIdx.x; t < nf; t += SM_THREADS) s[t] = __ldg(src + t);
    __syncthreads();
    if (threadIdx.x < nm) {
        const float* a = s + threadIdx.x * 9;
        float det = a[0] * (a[4] * a[8] - a[5] * a[7])
                  - a[1] * (a[3] * a[8] - a[5] * a[6])
                  + a[2] * (a[3] * a[7] - a[4] * a[6]);
        y[base + threadIdx.x] = det;
    }
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
    long long blocks = (n + SM_THREADS - 1) / SM_THREADS;
    det3_smem_kernel<<<(unsigned int)blocks, SM_THREADS>>>(xc.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_mat3_det_smem_coalesced",
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
