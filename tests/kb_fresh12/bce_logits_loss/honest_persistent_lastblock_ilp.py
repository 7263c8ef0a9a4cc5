# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor bce_logits_mean_cuda(torch::Tensor logits, torch::Tensor targets);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Single-launch persistent reduction: the grid is sized from the occupancy calculator
// (resident blocks per SM x SM count). Each thread issues 4 independent float4 loads of
// each input before doing any math (memory-level parallelism), uses fast exp/log
// intrinsics, and keeps two accumulators. Blocks reduce with warp shuffles and write a
// partial; the last block to finish (threadfence + atomic ticket) reduces all partials and
// writes the mean, so no second kernel launch is needed.

#define THREADS 256
#define UNROLL 4

__device__ __forceinline__ float bce_fast(float x, float t) {
    // max(x,0) - x*t + log(1 + exp(-|x|)); 1 + e with e in (0,1] keeps __logf accurate.
    float e = __expf(-fabsf(x));
    return fmaxf(x, 0.0f) - x * t + __logf(1.0f + e);
}

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

__device__ __forceinline__ float block_sum(float v, float* warp_sums) {
    int lane = threadIdx.x & 31;
    int wid = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) warp_sums[wid] = v;
    __syncthreads();
    v = (lane < (THREADS / 32)) ? warp_sums[lane] : 0.0f;
    v = warp_sum(v);
    __syncthreads();
    return v;
}

__global__ void __launch_bounds__(THREADS)
bce_persistent_kernel(const float* __restrict__ x,
                      const float* __restrict__ t,
                      float* __restrict__ partials,
                      unsigned int* __restrict__ ticket,
                      float* __restrict__ out,
                      long long n, int use_vec) {
    __shared__ float warp_sums[THREADS / 32];
    __shared__ bool is_last;

    const long long gtid = (long long)blockIdx.x * THREADS + threadIdx.x;
    const long long nthreads = (long long)gridDim.x * THREADS;
    float acc0 = 0.0f, acc1 = 0.0f;
    long long scalar_start = 0;

    if (use_vec) {
        const float4* x4 = reinterpret_cast<const float4*>(x);
        const float4* t4 = reinterpret_cast<const float4*>(t);
        const long long n4 = n >> 2;
        long long i = gtid;
        // Main body: UNROLL float4 per input per thread per iteration, all in flight at once.
        for (; i + (UNROLL - 1) * nthreads < n4; i += UNROLL * nthreads) {
            float4 a[UNROLL], b[UNROLL];
            #pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                a[u] = __ldg(x4 + i + u * nthreads);
                b[u] = __ldg(t4 + i + u * nthreads);
            }
            #pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                acc0 += bce_fast(a[u].x, b[u].x) + bce_fast(a[u].y, b[u].y);
                acc1 += bce_fast(a[u].z, b[u].z) + bce_fast(a[u].w, b[u].w);
            }
        }
        // Remaining float4s.
        for (; i < n4; i += nthreads) {
            float4 a = __ldg(x4 + i);
            float4 b = __ldg(t4 + i);
            acc0 += bce_fast(a.x, b.x) + bce_fast(a.y, b.y);
            acc1 += bce_fast(a.z, b.z) + bce_fast(a.w, b.w);
        }
        scalar_start = n4 << 2;
    }
    // Scalar tail (N % 4 elements), or everything if the pointers are misaligned.
    for (long long j = scalar_start + gtid; j < n; j += nthreads) {
        acc0 += bce_fast(__ldg(x + j), __ldg(t + j));
    }

    float bsum = block_sum(acc0 + acc1, warp_sums);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = bsum;
        __threadfence();
        unsigned int prev = atomicAdd(ticket, 1u);
        is_last = (prev == gridDim.x - 1);
    }
    __syncthreads();

    if (is_last) {
        __threadfence();
        float s = 0.0f;
        for (int k = threadIdx.x; k < (int)gridDim.x; k += THREADS) s += __ldcg(partials + k);
        s = block_sum(s, warp_sums);
        if (threadIdx.x == 0) out[0] = (float)((double)s / (double)n);
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
    auto out = torch::empty({}, xc.options());

    const float* xp = xc.data_ptr<float>();
    const float* tp = tc.data_ptr<float>();
    int use_vec = ((reinterpret_cast<uintptr_t>(xp) & 15) == 0 &&
                   (reinterpret_cast<uintptr_t>(tp) & 15) == 0) ? 1 : 0;

    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bce_persistent_kernel, THREADS, 0);
    if (sms <= 0) sms = 132;
    if (per_sm <= 0) per_sm = 1;
    long long blocks = (long long)sms * per_sm;
    long long per_block = (long long)THREADS * (use_vec ? 4 * UNROLL : 1);
    long long needed = (n + per_block - 1) / per_block;
    if (blocks > needed) blocks = needed;
    if (blocks < 1) blocks = 1;

    auto partials = torch::empty({blocks}, xc.options());
    auto ticket = torch::zeros({1}, xc.options().dtype(torch::kInt32));
    bce_persistent_kernel<<<(unsigned int)blocks, THREADS>>>(
        xp, tp, partials.data_ptr<float>(),
        reinterpret_cast<unsigned int*>(ticket.data_ptr<int>()),
        out.data_ptr<float>(), n, use_vec);
    return out;
}
"""

bce_mod = load_inline(
    name="s46_bce_persistent_lastblock_ilp",
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
