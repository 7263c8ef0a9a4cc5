# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor bce_logits_mean_cuda(torch::Tensor logits, torch::Tensor targets);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Classic deterministic two-pass reduction: pass 1 uses a grid-stride loop (at most 1024
// blocks) and a sequential-addressing shared-memory tree to write one partial sum per
// block; pass 2 is a single 1024-thread block that reduces the partials the same way and
// writes the mean. No atomics.

#define BLOCK1 256
#define BLOCK2 1024
#define MAX_PARTIALS 1024

__device__ __forceinline__ float bce_elem(float x, float t) {
    return fmaxf(x, 0.0f) - x * t + log1pf(expf(-fabsf(x)));
}

__global__ void bce_partial_kernel(const float* __restrict__ x,
                                   const float* __restrict__ t,
                                   float* __restrict__ partials,
                                   long long n) {
    __shared__ float sdata[BLOCK1];
    unsigned int tid = threadIdx.x;
    long long stride = (long long)gridDim.x * BLOCK1;
    float sum = 0.0f;
    for (long long i = (long long)blockIdx.x * BLOCK1 + tid; i < n; i += stride) {
        sum += bce_elem(x[i], t[i]);
    }
    sdata[tid] = sum;
    __syncthreads();
    for (unsigned int s = BLOCK1 / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = sdata[0];
}

__global__ void bce_final_kernel(const float* __restrict__ partials, int num_partials,
                                 float* __restrict__ out, double n) {
    __shared__ float sdata[BLOCK2];
    unsigned int tid = threadIdx.x;
    float sum = 0.0f;
    for (int i = tid; i < num_partials; i += BLOCK2) sum += partials[i];
    sdata[tid] = sum;
    __syncthreads();
    for (unsigned int s = BLOCK2 / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[0] = (float)((double)sdata[0] / n);
}

torch::Tensor bce_logits_mean_cuda(torch::Tensor logits, torch::Tensor targets) {
    TORCH_CHECK(logits.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(logits.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32,
                "inputs must be float32");
    TORCH_CHECK(logits.numel() == targets.numel(), "logits and targets must have the same size");
    auto xc = logits.contiguous();
    auto tc = targets.contiguous();
    long long n = xc.numel();
    auto out = torch::empty({}, xc.options());

    long long blocks = (n + BLOCK1 - 1) / BLOCK1;
    if (blocks > MAX_PARTIALS) blocks = MAX_PARTIALS;
    if (blocks < 1) blocks = 1;
    auto partials = torch::empty({blocks}, xc.options());
    bce_partial_kernel<<<(unsigned int)blocks, BLOCK1>>>(
        xc.data_ptr<float>(), tc.data_ptr<float>(), partials.data_ptr<float>(), n);
    bce_final_kernel<<<1, BLOCK2>>>(partials.data_ptr<float>(), (int)blocks,
                                    out.data_ptr<float>(), (double)n);
    return out;
}
"""

bce_mod = load_inline(
    name="s46_bce_two_pass_shared_tree",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["bce_logits_mean_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return bce_mod.bce_logits_mean_cuda(logits, targets)
