# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor var_tree(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TREE_THREADS 256

// Classic shared-memory tree reduction (power-of-two block).
__device__ float block_reduce_tree(float v, float* sh) {
    const int tid = threadIdx.x;
    sh[tid] = v;
    __syncthreads();
    for (int s = TREE_THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) sh[tid] += sh[tid + s];
        __syncthreads();
    }
    float r = sh[0];
    __syncthreads();   // sh may be reused right after
    return r;
}

// One block per row; strided coalesced loops. Pass 1 reduces the sum to get the
// mean, pass 2 re-reads the row (mostly from L1/L2) to reduce squared deviations.
__global__ void var_tree_kernel(const float* __restrict__ x, float* __restrict__ out, long long cols) {
    __shared__ float sh[TREE_THREADS];
    const float* xr = x + (long long)blockIdx.x * cols;
    float s = 0.0f;
    for (long long c = threadIdx.x; c < cols; c += TREE_THREADS) s += xr[c];
    float mean = block_reduce_tree(s, sh) / (float)cols;
    float ss = 0.0f;
    for (long long c = threadIdx.x; c < cols; c += TREE_THREADS) {
        float d = xr[c] - mean;
        ss += d * d;
    }
    float tot = block_reduce_tree(ss, sh);
    if (threadIdx.x == 0) out[blockIdx.x] = tot / (float)(cols - 1);
}

torch::Tensor var_tree(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto sizes = x.sizes().vec();
    long long cols = sizes.back();
    sizes.back() = 1;
    auto out = torch::empty(sizes, x.options());
    if (out.numel() == 0) return out;
    long long rows = out.numel();
    if (cols == 0) { out.fill_(NAN); return out; }
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");
    var_tree_kernel<<<(unsigned int)rows, TREE_THREADS>>>(x.data_ptr<float>(), out.data_ptr<float>(), cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "var_tree_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_mod = load_inline(
    name="var_lastdim_smem_tree_two_pass",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["var_tree"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.var_tree(x.contiguous())
