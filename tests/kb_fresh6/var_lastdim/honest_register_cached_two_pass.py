# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor var_regcache(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define RC_THREADS 256
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL_MASK, v, off);
    return v;
}

// Block-wide sum; every thread receives the total. sh must hold RC_THREADS/32 floats.
__device__ __forceinline__ float block_sum(float v, float* sh) {
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) sh[wid] = v;
    __syncthreads();
    v = (lane < RC_THREADS / 32) ? sh[lane] : 0.0f;
    v = warp_sum(v);
    __syncthreads();
    return v;
}

// Fast path: the whole row lives in registers (VPT float4 per thread, 16-byte
// coalesced loads), so the numerically exact two-pass algorithm (mean, then
// squared deviations) costs a single read of global memory.
template <int VPT>
__global__ void __launch_bounds__(RC_THREADS)
var_regcache_kernel(const float* __restrict__ x, float* __restrict__ out, long long cols) {
    __shared__ float sh[RC_THREADS / 32];
    const int tid = threadIdx.x;
    const float4* x4 = reinterpret_cast<const float4*>(x + (long long)blockIdx.x * cols);
    const int n4 = (int)(cols >> 2);
    float4 v[VPT];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        int i = k * RC_THREADS + tid;
        if (i < n4) {
            v[k] = __ldg(x4 + i);
            s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
        } else {
            v[k] = make_float4(0.f, 0.f, 0.f, 0.f);
        }
    }
    const float mean = block_sum(s, sh) / (float)cols;
    float q = 0.0f;
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        int i = k * RC_THREADS + tid;
        if (i < n4) {
            float a = v[k].x - mean, b = v[k].y - mean, c = v[k].z - mean, d = v[k].w - mean;
            q += (a * a + b * b) + (c * c + d * d);
        }
    }
    q = block_sum(q, sh);
    if (tid == 0) out[blockIdx.x] = q / (float)(cols - 1);
}

// Generic fallback (any cols / alignment): two passes over global memory,
// warp-shuffle block reductions.
__global__ void __launch_bounds__(RC_THREADS)
var_generic_kernel(const float* __restrict__ x, float* __restrict__ out, long long cols) {
    __shared__ float sh[RC_THREADS / 32];
    const float* xr = x + (long long)blockIdx.x * cols;
    float s = 0.0f;
    for (long long c = threadIdx.x; c < cols; c += RC_THREADS) s += __ldg(xr + c);
    const float mean = block_sum(s, sh) / (float)cols;
    float q = 0.0f;
    for (long long c = threadIdx.x; c < cols; c += RC_THREADS) {
        float d = __ldg(xr + c) - mean;
        q += d * d;
    }
    q = block_sum(q, sh);
    if (threadIdx.x == 0) out[blockIdx.x] = q / (float)(cols - 1);
}

torch::Tensor var_regcache(torch::Tensor x) {
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
    const float* xp = x.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const unsigned int grid = (unsigned int)rows;
    bool vec_ok = (cols % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);
    long long n4 = cols / 4;
    if (vec_ok && n4 <= RC_THREADS)          var_regcache_kernel<1><<<grid, RC_THREADS>>>(xp, op, cols);
    else if (vec_ok && n4 <= 2 * RC_THREADS) var_regcache_kernel<2><<<grid, RC_THREADS>>>(xp, op, cols);
    else if (vec_ok && n4 <= 4 * RC_THREADS) var_regcache_kernel<4><<<grid, RC_THREADS>>>(xp, op, cols);
    else                                     var_generic_kernel<<<grid, RC_THREADS>>>(xp, op, cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "var_regcache launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_mod = load_inline(
    name="var_lastdim_register_cached_two_pass",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["var_regcache"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.var_regcache(x.contiguous())
