# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor global_sum_float4_two_pass(torch::Tensor x);"

cuda_src = r'''
#include <cuda_runtime.h>
#include <stdint.h>

#define BLOCK 256

__device__ __forceinline__ float warp_reduce_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

__device__ __forceinline__ float block_reduce_sum(float v) {
    __shared__ float warp_sums[BLOCK / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_reduce_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    v = (threadIdx.x < BLOCK / 32) ? warp_sums[threadIdx.x] : 0.0f;
    if (warp == 0) v = warp_reduce_sum(v);
    return v;  // valid in thread 0
}

// Pass 1: float4 grid-stride loads when the base is 16-byte aligned (n4 vectors), with the
// scalar tail [4*n4, n) handled by the same grid-stride threads. If misaligned, n4 == 0 and
// everything goes through the scalar loop.
__global__ void sum_float4_partials_kernel(const float* __restrict__ x, float* __restrict__ partials,
                                           long long n, long long n4) {
    float s = 0.0f;
    const long long tid = (long long)blockIdx.x * BLOCK + threadIdx.x;
    const long long stride = (long long)gridDim.x * BLOCK;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    for (long long i = tid; i < n4; i += stride) {
        float4 v = __ldg(x4 + i);
        s += (v.x + v.y) + (v.z + v.w);
    }
    for (long long i = n4 * 4 + tid; i < n; i += stride) s += __ldg(x + i);
    s = block_reduce_sum(s);
    if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

// Pass 2: one block reduces the per-block partials in a fixed order (deterministic).
__global__ void sum_final_kernel(const float* __restrict__ partials, float* __restrict__ out, int count) {
    float s = 0.0f;
    for (int i = threadIdx.x; i < count; i += BLOCK) s += partials[i];
    s = block_reduce_sum(s);
    if (threadIdx.x == 0) out[0] = s;
}

torch::Tensor global_sum_float4_two_pass(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "float32 only");
    x = x.contiguous();
    long long n = x.numel();
    auto out = torch::zeros({}, x.options());
    if (n == 0) return out;
    const float* ptr = x.data_ptr<float>();
    long long n4 = ((reinterpret_cast<uintptr_t>(ptr) & 15) == 0) ? n / 4 : 0;

    int dev = 0, sms = 132;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    long long work = n4 > 0 ? n4 : n;
    long long want = (work + BLOCK - 1) / BLOCK;
    long long cap = (long long)sms * 8;
    int blocks = (int)(want < cap ? want : cap);
    if (blocks < 1) blocks = 1;
    auto partials = torch::empty({blocks}, x.options());
    sum_float4_partials_kernel<<<blocks, BLOCK>>>(ptr, partials.data_ptr<float>(), n, n4);
    sum_final_kernel<<<1, BLOCK>>>(partials.data_ptr<float>(), out.data_ptr<float>(), blocks);
    return out;
}
'''

global_sum_float4_mod = load_inline(
    name="global_sum_float4_two_pass",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["global_sum_float4_two_pass"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return global_sum_float4_mod.global_sum_float4_two_pass(x)
