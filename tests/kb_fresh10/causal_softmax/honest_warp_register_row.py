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
// One warp per row with the whole row held in registers: lane l owns float4 columns l, l+32, ...
// (NV float4 per lane, NV chosen at compile time from S). Loads are issued only for float4s that
// contain unmasked elements, so each score above the diagonal is never read; max and sum are warp
// xor-shuffle all-reductions; the output row (zeros past the diagonal) is stored with float4 writes.
// Shapes that do not fit (S % 4 != 0, S > 2048, misaligned) use a scalar warp-per-row kernel.

#define FULL 0xffffffffu
#define WPB 4   // warps (rows) per block

template <int NV>
__global__ void __launch_bounds__(WPB * 32) causal_softmax_warp_reg_kernel(const float* __restrict__ x,
                                                                           float* __restrict__ out,
                                                                           long long rows, int S,
                                                                           float scale) {
    const int lane = threadIdx.x & 31;
    const long long row = (long long)blockIdx.x * WPB + (threadIdx.x >> 5);
    if (row >= rows) return;   // uniform per warp
    const int q = (int)(row % S);
    const int S4 = S >> 2;
    const float4* xr = reinterpret_cast<const float4*>(x + row * (long long)S);
    float4* orow = reinterpret_cast<float4*>(out + row * (long long)S);

    float4 v[NV];
    float m = -INFINITY;
    #pragma unroll
    for (int k = 0; k < NV; ++k) {
        const int i4 = lane + 32 * k;
        const int c = i4 << 2;
        if (i4 < S4 && c <= q) {
            float4 a = __ldg(xr + i4);
            a.x = a.x * scale;
            a.y = (c + 1 <= q) ? a.y * scale : -INFINITY;
            a.z = (c + 2 <= q) ? a.z * scale : -INFINITY;
            a.w = (c + 3 <= q) ? a.w * scale : -INFINITY;
            v[k] = a;
        } else {
            v[k] = make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
        }
        m = fmaxf(m, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(FULL, m, o));
    // m is finite: column 0 is always unmasked

    float s = 0.f;
    #pragma unroll
    for (int k = 0; k < NV; ++k) {
        v[k].x = __expf(v[k].x - m); v[k].y = __expf(v[k].y - m);
        v[k].z = __expf(v[k].z - m); v[k].w = __expf(v[k].w - m);
        s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL, s, o);
    const float inv = 1.f / s;

    #pragma unroll
    for (int k = 0; k < NV; ++k) {
        const int i4 = lane + 32 * k;
        if (i4 < S4) {
            float4 a = v[k];   // exp(-inf) = 0 for masked entries
            a.x *= inv; a.y *= inv; a.z *= inv; a.w *= inv;
            orow[i4] = a;
        }
    }
}

__global__ void causal_softmax_warp_scalar_kernel(const float* __restrict__ x, float* __restrict__ out,
                                                  long long rows, int S, float scale) {
    const int lane = threadIdx.x & 31;
    const long long row = (long long)blockIdx.x * WPB + (threadIdx.x >> 5);
    if (row >= rows) return;
    const int q = (int)(row % S);
    const float* xr = x + row * (long long)S;
    float* orow = out + row * (long long)S;
    float m = -INFINITY;
    for (int j = lane; j <= q; j += 32) m = fmaxf(m, xr[j] * scale);
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(FULL, m, o));
    float s = 0.f;
    for (int j = lane; j <= q; j += 32) s += __expf(xr[j] * scale - m);
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL, s, o);
    const float inv = 1.f / s;
    for (int j = lane; j < S; j += 32) orow[j] = (j <= q) ? __expf(xr[j] * scale - m) * inv : 0.f;
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
    const float* xp = xc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const float sc = (float)scale;
    const unsigned grid = (unsigned)((rows + WPB - 1) / WPB);
    const bool vec = (S % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(op) & 15) == 0);
    if (vec && S <= 128)       causal_softmax_warp_reg_kernel<1><<<grid, WPB * 32>>>(xp, op, rows, S, sc);
    else if (vec && S <= 256)  causal_softmax_warp_reg_kernel<2><<<grid, WPB * 32>>>(xp, op, rows, S, sc);
    else if (vec && S <= 512)  causal_softmax_warp_reg_kernel<4><<<grid, WPB * 32>>>(xp, op, rows, S, sc);
    else if (vec && S <= 1024) causal_softmax_warp_reg_kernel<8><<<grid, WPB * 32>>>(xp, op, rows, S, sc);
    else if (vec && S <= 2048) causal_softmax_warp_reg_kernel<16><<<grid, WPB * 32>>>(xp, op, rows, S, sc);
    else causal_softmax_warp_scalar_kernel<<<grid, WPB * 32>>>(xp, op, rows, S, sc);
    return out;
}
"""

my_mod = load_inline(
    name="cs_warp_register_row_s44",
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
