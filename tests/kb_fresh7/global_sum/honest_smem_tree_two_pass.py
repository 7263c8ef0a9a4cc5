# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor global_sum_tree_two_pass(torch::Tensor x);"

cuda_src = r'''
#include <cuda_runtime.h>

#define BLOCK 256
#define NUM_PARTIALS 1024

// Pass 1: grid-stride accumulation per thread, classic shared-memory tree reduction per block,
// one partial sum per block.
__global__ void sum_partials_kernel(const float* __restrict__ x, float* __restrict__ partials, long long n) {
    __shared__ float sdata[BLOCK];
    float s = 0.0f;
    long long stride = (long long)gridDim.x * BLOCK;
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += stride) s += x[i];
    sdata[threadIdx.x] = s;
    __syncthreads();
    for (int off = BLOCK / 2; off > 0; off >>= 1) {
        if (threadIdx.x < off) sdata[threadIdx.x] += sdata[threadIdx.x + off];
        __syncthreads();
    }
    if (threadIdx.x == 0) partials[blockIdx.x] = sdata[0];
}

// Pass 2: a single block of NUM_PARTIALS threads reduces the partials.
__global__ void sum_final_kernel(const float* __restrict__ partials, float* __restrict__ out, int count) {
    __shared__ float sdata[NUM_PARTIALS];
    sdata[threadIdx.x] = (threadIdx.x < count) ? partials[threadIdx.x] : 0.0f;
    __syncthreads();
    for (int off = NUM_PARTIALS / 2; off > 0; off >>= 1) {
        if (threadIdx.x < off) sdata[threadIdx.x] += sdata[threadIdx.x + off];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = sdata[0];
}

torch::Tensor global_sum_tree_two_pass(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "float32 only");
    x = x.contiguous();
    long long n = x.numel();
    auto out = torch::zeros({}, x.options());
    if (n == 0) return out;
    long long want = (n + BLOCK - 1) / BLOCK;
    int blocks = (int)(want < NUM_PARTIALS ? want : NUM_PARTIALS);
    auto partials = torch::empty({blocks}, x.options());
    sum_partials_kernel<<<blocks, BLOCK>>>(x.data_ptr<float>(), partials.data_ptr<float>(), n);
    sum_final_kernel<<<1, NUM_PARTIALS>>>(partials.data_ptr<float>(), out.data_ptr<float>(), blocks);
    return out;
}
'''

global_sum_tree_mod = load_inline(
    name="global_sum_smem_tree_two_pass",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["global_sum_tree_two_pass"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return global_sum_tree_mod.global_sum_tree_two_pass(x)
