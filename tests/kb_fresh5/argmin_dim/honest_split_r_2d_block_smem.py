# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor argmin_dim_split2d_forward(torch::Tensor x, int64_t dim);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>
#include <algorithm>
#include <climits>

#define TX 32
#define TY 8

__device__ __forceinline__ bool argmin_better(float v, int i, float bv, int bi) {
    const bool vn = isnan(v), bn = isnan(bv);
    if (vn || bn) return vn && (!bn || i < bi);
    return v < bv || (v == bv && i < bi);
}

// Block (TX, TY): TX consecutive inner columns (one warp -> coalesced loads) of one outer slice;
// thread row ty scans reduced rows r = ty, ty + TY, ...  Partial (value, index) pairs are merged
// through shared memory by the ty == 0 row, with index tie-breaking for first-occurrence semantics.
__global__ void argmin_dim_split2d_kernel(const float* __restrict__ x, int64_t* __restrict__ out,
                                          int64_t outer, int64_t R, int64_t inner) {
    __shared__ float sval[TY][TX + 1];
    __shared__ int sidx[TY][TX + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t col = (int64_t)blockIdx.x * TX + tx;
    const bool valid = col < inner;

    for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
        float best = INFINITY;
        int best_i = INT_MAX;
        if (valid) {
            const float* p = x + o * R * inner + col;
            for (int r = ty; r < R; r += TY) {
                const float v = __ldg(p + (int64_t)r * inner);
                // rows are visited in increasing order, so strict comparison keeps the first minimum
                if (v < best || (isnan(v) && !isnan(best)) || best_i == INT_MAX) { best = v; best_i = r; }
            }
        }
        sval[ty][tx] = best;
        sidx[ty][tx] = best_i;
        __syncthreads();
        if (ty == 0 && valid) {
            float b = sval[0][tx];
            int bi = sidx[0][tx];
#pragma unroll
            for (int k = 1; k < TY; ++k) {
                const float v = sval[k][tx];
                const int vi = sidx[k][tx];
                if (argmin_better(v, vi, b, bi)) { b = v; bi = vi; }
            }
            out[o * inner + col] = (int64_t)bi;
        }
        __syncthreads();
    }
}

torch::Tensor argmin_dim_split2d_forward(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int64_t nd = xc.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");

    int64_t outer = 1, inner = 1;
    const int64_t R = xc.size(dim);
    TORCH_CHECK(R > 0, "argmin over an empty dimension");
    TORCH_CHECK(R < INT_MAX, "reduced dimension too large for int indices");
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < nd; ++d) {
        if (d < dim) outer *= xc.size(d);
        if (d > dim) inner *= xc.size(d);
        if (d != dim) out_shape.push_back(xc.size(d));
    }
    auto out = torch::empty(out_shape, xc.options().dtype(torch::kInt64));
    if (outer * inner == 0) return out;

    const int64_t gx = (inner + TX - 1) / TX;
    TORCH_CHECK(gx <= 2147483647LL, "inner dimension too large");
    const int64_t gy = std::min<int64_t>(outer, 65535);
    dim3 block(TX, TY);
    dim3 grid((unsigned int)gx, (unsigned int)gy);
    argmin_dim_split2d_kernel<<<grid, block>>>(xc.data_ptr<float>(), out.data_ptr<int64_t>(), outer, R, inner);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "argmin_dim_split2d_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

argmin_module = load_inline(
    name="argmin_dim_kb5_split_r_2d_block_smem",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["argmin_dim_split2d_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return argmin_module.argmin_dim_split2d_forward(x, self.dim)
