# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor bce_logits_mean_cuda(torch::Tensor logits, torch::Tensor targets);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Vectorised two-pass reduction: a grid of 4 blocks per SM streams both inputs as float4
// (128-bit loads, grid-stride), a scalar tail handles N % 4 (or everything when the
// pointers are not 16-byte aligned), the block reduces with warp shuffles, and a second
// single-block kernel reduces the per-block partials and writes the mean.

#define THREADS 256
#define FINAL_THREADS 1024

__device__ __forceinline__ float bce_elem(float x, float t) {
    return fmaxf(x, 0.0f) - x * t + log1pf(expf(-fabsf(x)));
}

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

// Sum over the block; valid in thread 0 only.
__device__ __forceinline__ float block_sum_t0(float v) {
    __shared__ float warp_sums[32];
    int lane = threadIdx.x & 31;
    int wid = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) warp_sums[wid] = v;
    __syncthreads();
    if (wid == 0) {
        v = (lane < (int)(blockDim.x >> 5)) ? warp_sums[lane] : 0.0f;
        v = warp_sum(v);
    }
    return v;
}

__global__ void bce_vec4_partial_kernel(const float* __restrict__ x,
                                        const float* __restrict__ t,
                                        float* __restrict__ partials,
                                        long long n, int use_vec) {
    long long gtid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long stride = (long long)gridDim.x * blockDim.x;
    float sum = 0.0f;
    long long scalar_start = 0;
    if (use_vec) {
        long long n4 = n >> 2;
        const float4* x4 = reinterpret_cast<const float4*>(x);
        const float4* t4 = reinterpret_cast<const float4*>(t);
        for (long long i = gtid; i < n4; i += stride) {
            float4 a = __ldg(x4 + i);
            float4 b = __ldg(t4 + i);
            sum += bce_elem(a.x, b.x);
            sum += bce_elem(a.y, b.y);
            sum += bce_elem(a.z, b.z);
            sum += bce_elem(a.w, b.w);
        }
        scalar_start = n4 << 2;
    }
    for (long long i = scalar_start + gtid; i < n; i += stride) {
        sum += bce_elem(__ldg(x + i), __ldg(t + i));
    }
    sum = block_sum_t0(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

__global__ void bce_final_kernel(const float* __restrict__ partials, int count,
                                 float* __restrict__ out, double n) {
    float sum = 0.0f;
    for (int i = threadIdx.x; i < count; i += FINAL_THREADS) sum += partials[i];
    sum = block_sum_t0(sum);
    if (threadIdx.x == 0) out[0] = (float)((double)sum / n);
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

    const float* xp = xc.data_ptr<float>();
    const float* tp = tc.data_ptr<float>();
    int use_vec = ((reinterpret_cast<uintptr_t>(xp) & 15) == 0 &&
                   (reinterpret_cast<uintptr_t>(tp) & 15) == 0) ? 1 : 0;

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 132;
    long long blocks = (long long)sms * 4;
    long long per_block = (long long)THREADS * (use_vec ? 4 : 1);
    long long needed = (n + per_block - 1) / per_block;
    if (blocks > needed) blocks = needed;
    if (blocks < 1) blocks = 1;

    auto partials = torch::empty({blocks}, xc.options());
    bce_vec4_partial_kernel<<<(unsigned int)blocks, THREADS>>>(xp, tp, partials.data_ptr<float>(), n, use_vec);
    bce_final_kernel<<<1, FINAL_THREADS>>>(partials.data_ptr<float>(), (int)blocks,
                                           out.data_ptr<float>(), (double)n);
    return out;
}
"""

bce_mod = load_inline(
    name="s46_bce_float4_shuffle_two_pass",
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
