# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor bce_logits_mean_cuda(torch::Tensor logits, torch::Tensor targets);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Naive first attempt: one element per thread, shared-memory tree reduction with
// interleaved addressing inside each block, one float atomicAdd per block into a
// global accumulator, then a 1-thread kernel divides by N.

__device__ __forceinline__ float bce_elem(float x, float t) {
    // max(x,0) - x*t + log(1 + exp(-|x|)), the numerically stable form
    return fmaxf(x, 0.0f) - x * t + log1pf(expf(-fabsf(x)));
}

__global__ void bce_block_atomic_kernel(const float* __restrict__ x,
                                        const float* __restrict__ t,
                                        float* __restrict__ acc,
                                        long long n) {
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    sdata[tid] = (i < n) ? bce_elem(x[i], t[i]) : 0.0f;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if ((tid % (2 * s)) == 0 && tid + s < blockDim.x) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) atomicAdd(acc, sdata[0]);
}

__global__ void bce_finalize_kernel(const float* __restrict__ acc, float* __restrict__ out, double n) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        out[0] = (float)((double)acc[0] / n);
    }
}

torch::Tensor bce_logits_mean_cuda(torch::Tensor logits, torch::Tensor targets) {
    TORCH_CHECK(logits.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(logits.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32,
                "inputs must be float32");
    TORCH_CHECK(logits.numel() == targets.numel(), "logits and targets must have the same size");
    auto xc = logits.contiguous();
    auto tc = targets.contiguous();
    long long n = xc.numel();
    auto acc = torch::zeros({1}, xc.options());
    auto out = torch::empty({}, xc.options());
    const int threads = 256;
    if (n > 0) {
        long long blocks = (n + threads - 1) / threads;
        bce_block_atomic_kernel<<<(unsigned int)blocks, threads, threads * sizeof(float)>>>(
            xc.data_ptr<float>(), tc.data_ptr<float>(), acc.data_ptr<float>(), n);
    }
    bce_finalize_kernel<<<1, 1>>>(acc.data_ptr<float>(), out.data_ptr<float>(), (double)n);
    return out;
}
"""

bce_mod = load_inline(
    name="s46_bce_naive_block_atomic",
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
