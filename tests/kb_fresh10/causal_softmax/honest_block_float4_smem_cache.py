# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor causal_softmax_cuda(torch::Tensor scores, double scale);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <math.h>
// One 256-thread block per row. Only the unmasked prefix (rounded up to whole float4s) is read from
// global memory, once, with float4 loads, scaled and cached in dynamic shared memory (masked lanes
// stored as -inf). Max and sum use warp-shuffle block reductions; exponentials are written back into
// the shared row, then the whole output row is stored as float4 (zeros past the diagonal).
// Rows that cannot be vectorised or do not fit in shared memory use a scalar block kernel.

#define NT 256
#define NW (NT / 32)
#define FULL 0xffffffffu

__device__ __forceinline__ float warp_max(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
    return v;
}
__device__ __forceinline__ float block_max(float v, float* red) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_max(v);
    if (lane == 0) red[warp] = v;
    __syncthreads();
    float r = (lane < NW) ? red[lane] : -INFINITY;
    r = warp_max(r);
    __syncthreads();   // red can be reused afterwards
    return r;
}
__device__ __forceinline__ float block_sum(float v, float* red) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) red[warp] = v;
    __syncthreads();
    float r = (lane < NW) ? red[lane] : 0.f;
    r = warp_sum(r);
    __syncthreads();
    return r;
}

__global__ void __launch_bounds__(NT) causal_softmax_smem_vec_kernel(const float* __restrict__ x,
                                                                     float* __restrict__ out,
                                                                     int S, float scale) {
    extern __shared__ float4 srow[];   // S / 4 entries
    __shared__ float red[NW];
    const long long row = blockIdx.x;
    const int q = (int)(row % S);
    const float4* xr = reinterpret_cast<const float4*>(x + row * (long long)S);
    float4* orow = reinterpret_cast<float4*>(out + row * (long long)S);
    const int S4 = S >> 2;
    const int n4 = (q >> 2) + 1;        // float4s that contain at least one unmasked element (<= S4)
    const int t = threadIdx.x;

    float m = -INFINITY;
    for (int i = t; i < n4; i += NT) {
        float4 a = __ldg(xr + i);
        const int c = i << 2;
        a.x = a.x * scale;                               // c <= q always
        a.y = (c + 1 <= q) ? a.y * scale : -INFINITY;
        a.z = (c + 2 <= q) ? a.z * scale : -INFINITY;
        a.w = (c + 3 <= q) ? a.w * scale : -INFINITY;
        srow[i] = a;
        m = fmaxf(m, fmaxf(fmaxf(a.x, a.y), fmaxf(a.z, a.w)));
    }
    m = block_max(m, red);   // also orders the srow writes before the reads below

    float s = 0.f;
    for (int i = t; i < n4; i += NT) {
        float4 a = srow[i];
        a.x = __expf(a.x - m); a.y = __expf(a.y - m); a.z = __expf(a.z - m); a.w = __expf(a.w - m);
        srow[i] = a;          // same thread reads this slot again below
        s += (a.x + a.y) + (a.z + a.w);
    }
    s = block_sum(s, red);
    const float inv = 1.f / s;

    for (int i = t; i < S4; i += NT) {
        float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
        if (i < n4) {
            a = srow[i];
            a.x *= inv; a.y *= inv; a.z *= inv; a.w *= inv;
        }
        orow[i] = a;
    }
}

__global__ void __launch_bounds__(NT) causal_softmax_scalar_kernel(const float* __restrict__ x,
                                                                   float* __restrict__ out,
                                                                   int S, float scale) {
    __shared__ float red[NW];
    const long long row = blockIdx.x;
    const int q = (int)(row % S);
    const float* xr = x + row * (long long)S;
    float* orow = out + row * (long long)S;
    const int t = threadIdx.x;
    float m = -INFINITY;
    for (int j = t; j <= q; j += NT) m = fmaxf(m, xr[j] * scale);
    m = block_max(m, red);
    float s = 0.f;
    for (int j = t; j <= q; j += NT) s += __expf(xr[j] * scale - m);
    s = block_sum(s, red);
    const float inv = 1.f / s;
    for (int j = t; j < S; j += NT) orow[j] = (j <= q) ? __expf(xr[j] * scale - m) * inv : 0.f;
}

torch::Tensor causal_softmax_cuda(torch::Tensor scores, double scale) {
    TORCH_CHECK(scores.is_cuda(), "scores must be a CUDA tensor");
    TORCH_CHECK(scores.scalar_type() == torch::kFloat32, "scores must be float32");
    TORCH_CHECK(scores.dim() >= 2 && scores.size(-1) == scores.size(-2), "scores must be [..., S, S]");
    auto xc = scores.contiguous();
    auto out = torch::empty_like(xc);
    if (xc.numel() == 0) return out;
    const int S = (int)xc.size(-1);
    const long long rows = xc.numel() / S;
    TORCH_CHECK(rows < 2147483647LL, "too many rows");
    const float* xp = xc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const size_t smem = (size_t)S * sizeof(float);
    const bool vec = (S % 4 == 0) && smem <= 48 * 1024 &&
                     ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(op) & 15) == 0);
    if (vec) causal_softmax_smem_vec_kernel<<<(unsigned)rows, NT, smem>>>(xp, op, S, (float)scale);
    else     causal_softmax_scalar_kernel<<<(unsigned)rows, NT>>>(xp, op, S, (float)scale);
    return out;
}
"""

my_mod = load_inline(
    name="cs_block_float4_smem_cache_s44",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["causal_softmax_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        return my_mod.causal_softmax_cuda(scores, float(self.scale))
