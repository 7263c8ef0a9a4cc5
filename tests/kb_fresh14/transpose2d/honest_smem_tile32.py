# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
// Strategy: classic shared-memory tiled transpose. 32x32 tile per block, 32x8 threads each moving
// 4 elements; the tile is padded to 33 columns so the column-wise reads are bank-conflict free.
// Both the global read and the global write are coalesced.
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TD 32
#define BR 8

__global__ void tile32_transpose_kernel(const float* __restrict__ x, float* __restrict__ out,
                                        int R, int C) {
    __shared__ float tile[TD][TD + 1];
    const int c = blockIdx.x * TD + threadIdx.x;
    const int r0 = blockIdx.y * TD + threadIdx.y;
#pragma unroll
    for (int i = 0; i < TD; i += BR) {
        int r = r0 + i;
        if (r < R && c < C) tile[threadIdx.y + i][threadIdx.x] = x[(long long)r * C + c];
    }
    __syncthreads();
    const int ocol = blockIdx.y * TD + threadIdx.x;   // output column = input row
    const int orow0 = blockIdx.x * TD + threadIdx.y;  // output row = input column
#pragma unroll
    for (int i = 0; i < TD; i += BR) {
        int orow = orow0 + i;
        if (orow < C && ocol < R) out[(long long)orow * R + ocol] = tile[threadIdx.x][threadIdx.y + i];
    }
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    long long R = xc.size(0);
    long long C = xc.size(1);
    auto out = torch::empty({C, R}, xc.options());
    if (R == 0 || C == 0) return out;
    TORCH_CHECK(R < 2147483647LL - TD && C < 2147483647LL - TD, "dimension too large");
    dim3 block(TD, BR);
    dim3 grid((unsigned)((C + TD - 1) / TD), (unsigned)((R + TD - 1) / TD));
    TORCH_CHECK(grid.y <= 65535u, "too many rows for this grid layout");
    tile32_transpose_kernel<<<grid, block>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), (int)R, (int)C);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_transpose2d_smem_tile32",
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
