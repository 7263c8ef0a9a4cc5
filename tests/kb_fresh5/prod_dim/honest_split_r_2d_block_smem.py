# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor prod_dim_split2d_forward(torch::Tensor x, int64_t dim);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>
#include <algorithm>

#define TX 32   // columns (inner positions) per block, one warp wide -> coalesced 128B rows
#define TY 8    // number of slices the reduced axis is split into inside a block

// Block (TX, TY) covers TX consecutive inner columns of one outer slice.  Thread (tx, ty) multiplies
// rows r = ty, ty + TY, ...; the TY partial products per column are combined through shared memory.
__global__ void prod_dim_split2d_kernel(const float* __restrict__ x, float* __restrict__ y,
                                        int64_t outer, int64_t R, int64_t inner) {
    __shared__ float part[TY][TX + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t col = (int64_t)blockIdx.x * TX + tx;
    const bool valid = col < inner;

    for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {   // uniform across the block
        float acc = 1.0f;
        if (valid) {
            const float* p = x + o * R * inner + col;
            for (int64_t r = ty; r < R; r += TY) acc *= __ldg(p + r * inner);
        }
        part[ty][tx] = acc;
        __syncthreads();
        if (ty == 0 && valid) {
            float v = part[0][tx];
#pragma unroll
            for (int k = 1; k < TY; ++k) v *= part[k][tx];
            y[o * inner + col] = v;
        }
        __syncthreads();   // part[] is reused by the next outer iteration
    }
}

torch::Tensor prod_dim_split2d_forward(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int64_t nd = xc.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");

    int64_t outer = 1, inner = 1;
    const int64_t R = xc.size(dim);
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < nd; ++d) {
        if (d < dim) outer *= xc.size(d);
        if (d > dim) inner *= xc.size(d);
        if (d != dim) out_shape.push_back(xc.size(d));
    }
    auto y = torch::empty(out_shape, xc.options());
    if (outer * inner == 0) return y;

    const int64_t gx = (inner + TX - 1) / TX;
    TORCH_CHECK(gx <= 2147483647LL, "inner dimension too large");
    const int64_t gy = std::min<int64_t>(outer, 65535);
    dim3 block(TX, TY);
    dim3 grid((unsigned int)gx, (unsigned int)gy);
    prod_dim_split2d_kernel<<<grid, block>>>(xc.data_ptr<float>(), y.data_ptr<float>(), outer, R, inner);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "prod_dim_split2d_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

prod_module = load_inline(
    name="prod_dim_kb5_split_r_2d_block_smem",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["prod_dim_split2d_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return prod_module.prod_dim_split2d_forward(x, self.dim)
