# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

l1_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define BLOCK 256

// One block per row: coalesced strided sweep accumulating |x|, a shared-memory tree
// reduction, then a second sweep that divides the row by its mean absolute value.
__global__ void l1_norm_block_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
    __shared__ float sdata[BLOCK];
    const int tid = threadIdx.x;
    const long long base = (long long)blockIdx.x * cols;
    const float* xr = x + base;
    float* yr = y + base;

    float s = 0.f;
    for (int j = tid; j < cols; j += BLOCK) s += fabsf(xr[j]);
    sdata[tid] = s;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride) sdata[tid] += sdata[tid + stride];
        __syncthreads();
    }
    const float mean = sdata[0] / (float)cols;

    for (int j = tid; j < cols; j += BLOCK) yr[j] = xr[j] / mean;
}

torch::Tensor l1_norm_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const long long rows = x.size(0), cols = x.size(1);
    if (rows == 0 || cols == 0) return y;
    TORCH_CHECK(cols < (1LL << 31) && rows < (1LL << 31), "tensor too large");
    l1_norm_block_kernel<<<(unsigned)rows, BLOCK>>>(x.data_ptr<float>(), y.data_ptr<float>(), (int)cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "l1_norm kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

l1_norm_cpp_source = "torch::Tensor l1_norm_cuda(torch::Tensor x);"

l1_norm = load_inline(
    name="l1_norm_block_per_row_shared_tree",
    cpp_sources=l1_norm_cpp_source,
    cuda_sources=l1_norm_source,
    functions=["l1_norm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l1_norm.l1_norm_cuda(x.contiguous())
