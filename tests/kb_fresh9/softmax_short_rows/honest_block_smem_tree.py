# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor softmax_block_tree_forward(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>

#define BLOCK 64

// One 64-thread block per row. Each thread strides over the row (exactly one element for the
// 64-wide rows here), then classic shared-memory tree reductions compute the row max and the
// sum of exp(x - max); finally every thread writes its normalised element(s).
__global__ void softmax_block_tree_kernel(const float* __restrict__ x, float* __restrict__ y, int cols)
{
    __shared__ float red[BLOCK];
    const long long row = blockIdx.x;
    const float* xr = x + row * cols;
    float* yr = y + row * cols;
    const int tid = threadIdx.x;

    float m = -FLT_MAX;
    for (int j = tid; j < cols; j += BLOCK) m = fmaxf(m, xr[j]);
    red[tid] = m;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
        __syncthreads();
    }
    const float row_max = red[0];
    __syncthreads();   // everyone has read red[0] before it is overwritten

    float sum = 0.f;
    for (int j = tid; j < cols; j += BLOCK) sum += expf(xr[j] - row_max);
    red[tid] = sum;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) red[tid] += red[tid + s];
        __syncthreads();
    }
    const float inv = 1.0f / red[0];

    for (int j = tid; j < cols; j += BLOCK) yr[j] = expf(xr[j] - row_max) * inv;
}

torch::Tensor softmax_block_tree_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int cols = (int)xc.size(-1);
    if (xc.numel() == 0 || cols == 0) return y;
    const long long rows = xc.numel() / cols;
    TORCH_CHECK(rows < (1LL << 31), "too many rows for a 1-D grid");
    softmax_block_tree_kernel<<<(unsigned)rows, BLOCK>>>(xc.data_ptr<float>(), y.data_ptr<float>(), cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "softmax_block_tree_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

softmax_block_tree_ext = load_inline(
    name="softmax_short_rows_block_smem_tree_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["softmax_block_tree_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax_block_tree_ext.softmax_block_tree_forward(x)
