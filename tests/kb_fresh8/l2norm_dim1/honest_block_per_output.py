# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Naive "one block per output" mapping: block (b, l) reduces x[b, :, l].  Threads of the block
# stride over C, so each warp load touches 32 different cache lines (stride L) - uncoalesced.
# The per-thread partial sums are combined with a shared-memory tree reduction.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void l2norm_dim1_block_kernel(const float* __restrict__ x,
                                         float* __restrict__ out,
                                         int C, int L) {
    __shared__ float sdata[BLOCK];
    const long long o = blockIdx.x;          // output index = b * L + l
    const int b = (int)(o / L);
    const int l = (int)(o % L);
    const float* p = x + (long long)b * C * L + l;

    float s = 0.0f;
    for (int c = threadIdx.x; c < C; c += BLOCK) {
        float v = p[(long long)c * L];
        s += v * v;
    }
    sdata[threadIdx.x] = s;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) sdata[threadIdx.x] += sdata[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[o] = sqrtf(sdata[0]);
}

torch::Tensor l2norm_dim1_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be (B, C, L)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    const int B = (int)x.size(0), C = (int)x.size(1), L = (int)x.size(2);
    auto out = torch::empty({B, L}, x.options());
    long long total = (long long)B * L;
    if (total == 0) return out;
    TORCH_CHECK(total < 2147483647LL, "too many outputs for a 1-D grid");
    l2norm_dim1_block_kernel<<<(unsigned int)total, BLOCK>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), C, L);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "l2norm_dim1_block_kernel launch failed");
    return out;
}
"""

cpp_source = "torch::Tensor l2norm_dim1_cuda(torch::Tensor x);"

l2norm_ext = load_inline(
    name="l2norm_dim1_block_per_output",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["l2norm_dim1_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l2norm_ext.l2norm_dim1_cuda(x)
