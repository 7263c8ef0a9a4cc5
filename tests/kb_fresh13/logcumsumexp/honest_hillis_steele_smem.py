# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
// Strategy: one block per row, 1024-element chunks; Hillis-Steele inclusive scan in double-buffered
// shared memory with the log-add-exp operator, carry propagated between chunks.

#define HS_BLOCK 1024

__device__ __forceinline__ float log_add_exp(float a, float b) {
    float mx = fmaxf(a, b);
    float mn = fminf(a, b);
    if (mx == -INFINITY) return mx;
    return mx + log1pf(expf(mn - mx));
}

__global__ void __launch_bounds__(HS_BLOCK)
lcse_hillis_steele_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
    __shared__ float buf[2][HS_BLOCK];
    const int tid = threadIdx.x;
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    float carry = -INFINITY;

    for (int base = 0; base < cols; base += HS_BLOCK) {
        int j = base + tid;
        buf[0][tid] = (j < cols) ? xr[j] : -INFINITY;
        __syncthreads();
        int cur = 0;
        for (int off = 1; off < HS_BLOCK; off <<= 1) {
            float a = buf[cur][tid];
            if (tid >= off) a = log_add_exp(buf[cur][tid - off], a);
            buf[cur ^ 1][tid] = a;
            cur ^= 1;
            __syncthreads();
        }
        float v = buf[cur][tid];
        float total = buf[cur][HS_BLOCK - 1];
        if (j < cols) yr[j] = log_add_exp(carry, v);
        carry = log_add_exp(carry, total);
        __syncthreads();  // everyone has read buf before the next chunk overwrites it
    }
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int rows = (int)xc.size(0);
    int cols = (int)xc.size(1);
    if (rows == 0 || cols == 0) return out;
    lcse_hillis_steele_kernel<<<rows, HS_BLOCK>>>(xc.data_ptr<float>(), out.data_ptr<float>(), cols);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_logcumsumexp_hillis_steele_smem",
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
