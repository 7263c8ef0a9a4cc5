# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor prod_dim_block_tree_forward(torch::Tensor x, int64_t dim);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>

#define BLOCK 128

// One block per output element.  Each thread multiplies a strided subset of the reduced axis
// (elements r = tid, tid + BLOCK, ...), then a classic shared-memory tree reduction combines them.
__global__ void prod_dim_block_tree_kernel(const float* __restrict__ x, float* __restrict__ y,
                                           int64_t outer, int64_t R, int64_t inner) {
    __shared__ float sdata[BLOCK];
    const int64_t out_idx = blockIdx.x;          // flattened (o, i)
    const int64_t o = out_idx / inner;
    const int64_t i = out_idx - o * inner;
    const float* p = x + o * R * inner + i;

    float acc = 1.0f;
    for (int64_t r = threadIdx.x; r < R; r += BLOCK) {
        acc *= p[r * inner];
    }
    sdata[threadIdx.x] = acc;
    __syncthreads();

    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sdata[threadIdx.x] *= sdata[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) y[out_idx] = sdata[0];
}

torch::Tensor prod_dim_block_tree_forward(torch::Tensor x, int64_t dim) {
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
    const int64_t total = outer * inner;
    if (total == 0) return y;
    TORCH_CHECK(total <= 2147483647LL, "too many outputs for a 1D grid");

    prod_dim_block_tree_kernel<<<(unsigned int)total, BLOCK>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), outer, R, inner);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "prod_dim_block_tree_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

prod_module = load_inline(
    name="prod_dim_kb5_block_per_output_tree",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["prod_dim_block_tree_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return prod_module.prod_dim_block_tree_forward(x, self.dim)
