# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
// Strategy: one block per row, one element per thread held in a register. Bitonic stages with
// partner distance j < 32 are done with __shfl_xor_sync inside the warp (no barrier); stages with
// j >= 32 exchange through shared memory, double-buffered so each such stage needs one barrier.
#include <torch/extension.h>
#include <cuda_runtime.h>

#define MAXP 1024

__global__ void __launch_bounds__(MAXP) shfl_bitonic_kernel(const float* __restrict__ x,
                                                            float* __restrict__ out,
                                                            int cols, int P) {
    __shared__ float buf[2][MAXP];
    const int t = threadIdx.x;          // blockDim.x == P
    const long long row = blockIdx.x;
    float v = (t < cols) ? __ldg(x + row * cols + t) : __int_as_float(0x7f800000);
    int pb = 0;
    for (int k = 2; k <= P; k <<= 1) {
        const bool asc = (t & k) == 0;
        for (int j = k >> 1; j > 0; j >>= 1) {
            float o;
            if (j >= 32) {
                buf[pb][t] = v;
                __syncthreads();
                o = buf[pb][t ^ j];
                pb ^= 1;
            } else {
                o = __shfl_xor_sync(0xffffffffu, v, j);
            }
            const bool lower = (t & j) == 0;
            v = (asc == lower) ? fminf(v, o) : fmaxf(v, o);
        }
    }
    if (t < cols) out[row * cols + t] = v;
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    long long rows = xc.size(0);
    long long cols64 = xc.size(1);
    if (rows == 0 || cols64 == 0) return out;
    TORCH_CHECK(cols64 <= MAXP, "this kernel supports rows of at most 1024 elements");
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");
    int cols = (int)cols64;
    int P = 32;
    while (P < cols) P <<= 1;
    shfl_bitonic_kernel<<<(unsigned)rows, P>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), cols, P);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_sort_rows_shfl_bitonic",
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
