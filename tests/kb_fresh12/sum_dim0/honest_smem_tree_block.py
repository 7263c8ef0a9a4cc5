# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor sum0_smem_tree_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: 32x32 thread block = 32 columns x 32 row lanes. Each block owns a slab of rows;
// a thread strides down its column by 32 rows at a time, then the 32 row-lane partials of each
// column are combined with a shared-memory tree reduction and one atomicAdd per column per block.

#define BX 32
#define BY 32
#define NSLABS 16

__global__ void __launch_bounds__(BX * BY)
sum0_smem_tree_kernel(const float* __restrict__ x, float* __restrict__ out,
                      int R, int C, int rows_per) {
    __shared__ float s[BY][BX];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int c = blockIdx.x * BX + tx;
    const int r0 = blockIdx.y * rows_per;
    const int r1 = min(r0 + rows_per, R);
    float acc = 0.f;
    if (c < C) {
        for (int r = r0 + ty; r < r1; r += BY) acc += __ldg(&x[(size_t)r * C + c]);
    }
    s[ty][tx] = acc;
    __syncthreads();
#pragma unroll
    for (int stride = BY / 2; stride > 0; stride >>= 1) {
        if (ty < stride) s[ty][tx] += s[ty + stride][tx];
        __syncthreads();
    }
    if (ty == 0 && c < C) atomicAdd(&out[c], s[0][tx]);
}

torch::Tensor sum0_smem_tree_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    auto xc = x.contiguous();
    int R = (int)xc.size(0);
    int C = (int)xc.size(1);
    auto out = torch::zeros({(long)C}, xc.options());
    if (R == 0 || C == 0) return out;
    int nslabs = R < NSLABS ? R : NSLABS;
    int rows_per = (R + nslabs - 1) / nslabs;
    dim3 block(BX, BY);
    dim3 grid((C + BX - 1) / BX, nslabs);
    sum0_smem_tree_kernel<<<grid, block>>>(xc.data_ptr<float>(), out.data_ptr<float>(), R, C, rows_per);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_sum0_smem_tree_block",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["sum0_smem_tree_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.sum0_smem_tree_cuda(x)
