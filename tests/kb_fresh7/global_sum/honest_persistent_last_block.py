# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor global_sum_persistent(torch::Tensor x);"

cuda_src = r'''
#include <cuda_runtime.h>
#include <stdint.h>

#define BLOCK 512
#define UNROLL 4

__device__ __forceinline__ float warp_reduce_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

__device__ __forceinline__ float block_reduce_sum(float v, float* warp_sums) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_reduce_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    v = (threadIdx.x < BLOCK / 32) ? warp_sums[threadIdx.x] : 0.0f;
    if (warp == 0) v = warp_reduce_sum(v);
    __syncthreads();  // warp_sums may be reused by the caller
    return v;         // valid in thread 0
}

// Single-launch persistent reduction: one wave of blocks (grid = SMs * blocks/SM), each thread
// keeps UNROLL independent accumulators over float4 loads to keep many loads in flight. Each
// block publishes its partial; the last block to finish (atomic ticket after __threadfence)
// sums all partials in a fixed order and writes the result.
__global__ void __launch_bounds__(BLOCK)
sum_persistent_kernel(const float* __restrict__ x, float* __restrict__ partials,
                      unsigned int* __restrict__ counter, float* __restrict__ out,
                      long long n, long long n4) {
    __shared__ float warp_sums[BLOCK / 32];
    __shared__ bool is_last;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const long long tid = (long long)blockIdx.x * BLOCK + threadIdx.x;
    const long long stride = (long long)gridDim.x * BLOCK;

    float acc[UNROLL];
    #pragma unroll
    for (int u = 0; u < UNROLL; ++u) acc[u] = 0.0f;

    long long i = tid;
    for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
        float4 v[UNROLL];
        #pragma unroll
        for (int u = 0; u < UNROLL; ++u) v[u] = __ldcs(x4 + i + u * stride);
        #pragma unroll
        for (int u = 0; u < UNROLL; ++u) acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
    for (; i < n4; i += stride) {
        float4 v = __ldcs(x4 + i);
        acc[0] += (v.x + v.y) + (v.z + v.w);
    }
    for (long long k = n4 * 4 + tid; k < n; k += stride) acc[1] += x[k];

    float s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    s = block_reduce_sum(s, warp_sums);

    if (threadIdx.x == 0) {
        partials[blockIdx.x] = s;
        __threadfence();
        unsigned int ticket = atomicAdd(counter, 1u);
        is_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (is_last) {
        __threadfence();
        float t = 0.0f;
        for (int b = threadIdx.x; b < (int)gridDim.x; b += BLOCK) t += __ldcg(partials + b);
        t = block_reduce_sum(t, warp_sums);
        if (threadIdx.x == 0) out[0] = t;
    }
}

torch::Tensor global_sum_persistent(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "float32 only");
    x = x.contiguous();
    long long n = x.numel();
    auto out = torch::zeros({}, x.options());
    if (n == 0) return out;
    const float* ptr = x.data_ptr<float>();
    long long n4 = ((reinterpret_cast<uintptr_t>(ptr) & 15) == 0) ? n / 4 : 0;

    int dev = 0, sms = 132, per_sm = 1;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sum_persistent_kernel, BLOCK, 0);
    if (per_sm < 1) per_sm = 1;
    long long work = n4 > 0 ? n4 : n;
    long long want = (work + BLOCK - 1) / BLOCK;
    long long cap = (long long)sms * per_sm;
    int blocks = (int)(want < cap ? want : cap);
    if (blocks < 1) blocks = 1;

    auto partials = torch::empty({blocks}, x.options());
    auto counter = torch::zeros({1}, x.options().dtype(torch::kInt32));
    sum_persistent_kernel<<<blocks, BLOCK>>>(ptr, partials.data_ptr<float>(),
        reinterpret_cast<unsigned int*>(counter.data_ptr<int>()), out.data_ptr<float>(), n, n4);
    return out;
}
'''

global_sum_persistent_mod = load_inline(
    name="global_sum_persistent_last_block",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["global_sum_persistent"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return global_sum_persistent_mod.global_sum_persistent(x)
