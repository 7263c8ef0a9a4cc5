# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor logsumexp_smem_tree(torch::Tensor x);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <cmath>

#define BLOCK 256

// One block per row. Threads stride over the row (coalesced), then a classic shared-memory tree
// reduction gives the row max; a second strided pass sums exp(x - max) and is tree-reduced the same way.
__global__ void logsumexp_smem_tree_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
    __shared__ float sh[BLOCK];
    const int t = threadIdx.x;
    const float* xr = x + (long long)blockIdx.x * cols;

    float m = -INFINITY;
    for (int c = t; c < cols; c += BLOCK) m = fmaxf(m, xr[c]);
    sh[t] = m;
    __syncthreads();
    for (int st = BLOCK / 2; st > 0; st >>= 1) {
        if (t < st) sh[t] = fmaxf(sh[t], sh[t + st]);
        __syncthreads();
    }
    const float rmax = sh[0];
    __syncthreads();   // everyone has read sh[0] before it is reused

    const float shift = (rmax == INFINITY || rmax == -INFINITY) ? 0.0f : rmax;
    float s = 0.0f;
    for (int c = t; c < cols; c += BLOCK) s += expf(xr[c] - shift);
    sh[t] = s;
    __syncthreads();
    for (int st = BLOCK / 2; st > 0; st >>= 1) {
        if (t < st) sh[t] += sh[t + st];
        __syncthreads();
    }
    if (t == 0) y[blockIdx.x] = logf(sh[0]) + shift;
}

torch::Tensor logsumexp_smem_tree(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto xc = x.contiguous();
    const long long cols = xc.size(-1);
    TORCH_CHECK(cols > 0 && cols < 2147483647LL, "bad last dimension");
    const long long rows = xc.numel() / cols;
    TORCH_CHECK(rows < 2147483647LL, "too many rows");
    auto out_sizes = xc.sizes().vec();
    out_sizes.pop_back();
    auto y = torch::empty(out_sizes, xc.options());
    if (rows == 0) return y;
    logsumexp_smem_tree_kernel<<<(unsigned)rows, BLOCK>>>(xc.data_ptr<float>(), y.data_ptr<float>(), (int)cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

logsumexp_smem_tree_mod = load_inline(
    name="logsumexp_lastdim_smem_tree_two_pass_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["logsumexp_smem_tree"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return logsumexp_smem_tree_mod.logsumexp_smem_tree(x)
