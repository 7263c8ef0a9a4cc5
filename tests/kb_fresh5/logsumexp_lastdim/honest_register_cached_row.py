# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor logsumexp_register_cached(torch::Tensor x);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>

#define THREADS 256
#define NWARPS (THREADS / 32)
#define FULL_MASK 0xffffffffu

template <bool IS_MAX>
__device__ __forceinline__ float warp_reduce(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float w = __shfl_xor_sync(FULL_MASK, v, o);
        v = IS_MAX ? fmaxf(v, w) : v + w;
    }
    return v;
}

// Block-wide reduction whose result ends up in every thread: each warp reduces its values, lane 0 parks
// them in shared memory, then every warp re-reduces the NWARPS partials. The trailing barrier makes
// `red` safe to reuse by the next call.
template <bool IS_MAX>
__device__ __forceinline__ float block_reduce(float v, float* red) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_reduce<IS_MAX>(v);
    if (lane == 0) red[warp] = v;
    __syncthreads();
    float t = (lane < NWARPS) ? red[lane] : (IS_MAX ? -INFINITY : 0.0f);
    t = warp_reduce<IS_MAX>(t);
    __syncthreads();
    return t;
}

__device__ __forceinline__ float max4(float4 v) { return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)); }

// Register-blocked exact two-pass: one block per row, the whole row is held in registers
// (NV float4 per thread, so up to NV * 1024 columns), read from HBM exactly once with coalesced 16-byte
// loads. Max and sum-of-exp are both computed from the registers. Missing tail slots hold -inf (exp -> 0).
template <int NV>
__global__ void __launch_bounds__(THREADS) logsumexp_regs_kernel(const float* __restrict__ x,
                                                                 float* __restrict__ y, int cols) {
    __shared__ float red[NWARPS];
    const int n4 = cols >> 2;
    const float4* xv = reinterpret_cast<const float4*>(x + (long long)blockIdx.x * cols);
    const float NEG_INF = -INFINITY;
    float4 v[NV];
    float m = NEG_INF;
#pragma unroll
    for (int k = 0; k < NV; ++k) {
        const int i = threadIdx.x + k * THREADS;
        v[k] = (i < n4) ? __ldg(xv + i) : make_float4(NEG_INF, NEG_INF, NEG_INF, NEG_INF);
        m = fmaxf(m, max4(v[k]));
    }
    m = block_reduce<true>(m, red);
    const float shift = (m == INFINITY || m == -INFINITY) ? 0.0f : m;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < NV; ++k) {
        s += (__expf(v[k].x - shift) + __expf(v[k].y - shift)) + (__expf(v[k].z - shift) + __expf(v[k].w - shift));
    }
    s = block_reduce<false>(s, red);
    if (threadIdx.x == 0) y[blockIdx.x] = logf(s) + shift;
}

// Fallback for unaligned rows or rows too long to cache: same structure, two passes over global memory.
__global__ void __launch_bounds__(THREADS) logsumexp_generic_kernel(const float* __restrict__ x,
                                                                    float* __restrict__ y, int cols) {
    __shared__ float red[NWARPS];
    const float* xr = x + (long long)blockIdx.x * cols;
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += THREADS) m = fmaxf(m, __ldg(xr + c));
    m = block_reduce<true>(m, red);
    const float shift = (m == INFINITY || m == -INFINITY) ? 0.0f : m;
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) s += __expf(__ldg(xr + c) - shift);
    s = block_reduce<false>(s, red);
    if (threadIdx.x == 0) y[blockIdx.x] = logf(s) + shift;
}

torch::Tensor logsumexp_register_cached(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto xc = x.contiguous();
    const long long cols = xc.size(-1);
    TORCH_CHECK(cols > 0 && cols < 2147483647LL, "bad last dimension");
    const long long rows = xc.numel() / cols;
    TORCH_CHECK(rows < 2147483647LL, "too many rows");
    auto out_sizes = xc.sizes().vec();
    out_sizes.pop_back();
    auto y = torch::empty(out_sizes, xc.options());
    if (rows == 0) return y;

    const float* xp = xc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const unsigned grid = (unsigned)rows;
    const int c = (int)cols;
    const bool vec = (cols % 4 == 0) && (reinterpret_cast<uintptr_t>(xp) % 16 == 0);
    const long long n4 = cols / 4;
    if (vec && n4 <= 1 * THREADS) {
        logsumexp_regs_kernel<1><<<grid, THREADS>>>(xp, yp, c);
    } else if (vec && n4 <= 2 * THREADS) {
        logsumexp_regs_kernel<2><<<grid, THREADS>>>(xp, yp, c);
    } else if (vec && n4 <= 4 * THREADS) {
        logsumexp_regs_kernel<4><<<grid, THREADS>>>(xp, yp, c);
    } else if (vec && n4 <= 8 * THREADS) {
        logsumexp_regs_kernel<8><<<grid, THREADS>>>(xp, yp, c);
    } else {
        logsumexp_generic_kernel<<<grid, THREADS>>>(xp, yp, c);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

logsumexp_register_cached_mod = load_inline(
    name="logsumexp_lastdim_register_cached_row_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["logsumexp_register_cached"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return logsumexp_register_cached_mod.logsumexp_register_cached(x)
