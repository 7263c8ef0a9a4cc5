# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor argmin_dim_block_tree_forward(torch::Tensor x, int64_t dim);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>
#include <climits>

#define BLOCK 256

// True if candidate (v, i) should win over (bv, bi): NaN beats numbers, smaller value wins,
// equal values (or two NaNs) are broken by the smaller index -> first occurrence like torch.argmin.
__device__ __forceinline__ bool argmin_better(float v, int i, float bv, int bi) {
    const bool vn = isnan(v), bn = isnan(bv);
    if (vn || bn) return vn && (!bn || i < bi);
    return v < bv || (v == bv && i < bi);
}

// One block per output element; threads stride the reduced axis, then a shared-memory tree
// reduction of (value, index) pairs.
__global__ void argmin_dim_block_tree_kernel(const float* __restrict__ x, int64_t* __restrict__ out,
                                             int64_t outer, int64_t R, int64_t inner) {
    __shared__ float sval[BLOCK];
    __shared__ int sidx[BLOCK];
    const int64_t out_idx = blockIdx.x;
    const int64_t o = out_idx / inner;
    const int64_t i = out_idx - o * inner;
    const float* p = x + o * R * inner + i;

    float best = INFINITY;
    int best_i = INT_MAX;
    for (int r = threadIdx.x; r < R; r += BLOCK) {
        const float v = p[(int64_t)r * inner];
        if (argmin_better(v, r, best, best_i)) { best = v; best_i = r; }
    }
    sval[threadIdx.x] = best;
    sidx[threadIdx.x] = best_i;
    __syncthreads();

    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            const float v = sval[threadIdx.x + s];
            const int vi = sidx[threadIdx.x + s];
            if (argmin_better(v, vi, sval[threadIdx.x], sidx[threadIdx.x])) {
                sval[threadIdx.x] = v;
                sidx[threadIdx.x] = vi;
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) out[out_idx] = (int64_t)sidx[0];
}

torch::Tensor argmin_dim_block_tree_forward(torch::Tensor x, int64_t dim) {
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
    const int64_t total = outer * inner;
    if (total == 0) return out;
    TORCH_CHECK(total <= 2147483647LL, "too many outputs for a 1D grid");

    argmin_dim_block_tree_kernel<<<(unsigned int)total, BLOCK>>>(
        xc.data_ptr<float>(), out.data_ptr<int64_t>(), outer, R, inner);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "argmin_dim_block_tree_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

argmin_module = load_inline(
    name="argmin_dim_kb5_block_per_output_tree",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["argmin_dim_block_tree_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return argmin_module.argmin_dim_block_tree_forward(x, self.dim)
