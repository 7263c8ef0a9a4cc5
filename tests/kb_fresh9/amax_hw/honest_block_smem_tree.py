# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cmath>

// One 256-thread block per plane: coalesced block-strided loads, then the
// classic shared-memory tree reduction (halving the active threads each step).
#define THREADS 256

__global__ void amax_hw_block_tree_kernel(const float* __restrict__ x,
                                          float* __restrict__ out, int hw) {
    __shared__ float sdata[THREADS];
    const long long p = blockIdx.x;
    const float* xp = x + p * hw;
    const int tid = threadIdx.x;

    float m = -INFINITY;
    for (int k = tid; k < hw; k += THREADS) {
        m = fmaxf(m, xp[k]);
    }
    sdata[tid] = m;
    __syncthreads();

    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] = fmaxf(sdata[tid], sdata[tid + s]);
        }
        __syncthreads();
    }
    if (tid == 0) out[p] = sdata[0];
}

torch::Tensor amax_hw_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 4, "x must be 4-D (B, C, H, W)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    const long long B = x.size(0), C = x.size(1);
    const long long hw = x.size(2) * x.size(3);
    TORCH_CHECK(hw > 0, "amax over an empty plane is undefined");
    TORCH_CHECK(hw <= 2147483647LL, "plane too large");
    auto out = torch::empty({B, C}, x.options());
    const long long planes = B * C;
    if (planes == 0) return out;
    TORCH_CHECK(planes <= 2147483647LL, "too many planes");
    amax_hw_block_tree_kernel<<<(unsigned int)planes, THREADS>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), (int)hw);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "amax_hw_block_tree_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_src = "torch::Tensor amax_hw_forward(torch::Tensor x);"

amax_ext = load_inline(
    name="amax_hw_block_smem_tree",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["amax_hw_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return amax_ext.amax_hw_forward(x.contiguous())
