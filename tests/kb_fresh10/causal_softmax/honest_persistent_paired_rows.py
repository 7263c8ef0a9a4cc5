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
// Persistent, load-balanced warp-per-row-pair kernel. The grid is sized from the occupancy calculator
// and warps stride over work items; an item is the pair of query rows (p, S-1-p) of one matrix, so
// every item touches S+1 unmasked scores no matter where it sits in the triangle. Both rows are held
// in registers at once (two independent load streams per warp), only float4s containing unmasked
// scores are loaded (streaming, evict-first), the two max/sum warp reductions are interleaved, and the
// rows (zeros past the diagonal) are written with streaming float4 stores.
// S % 4 != 0, S > 1024 or misaligned pointers use a scalar warp-per-row kernel.

#define FULL 0xffffffffu
#define NT 256
#define WPB (NT / 32)

template <int NV>
__device__ __forceinline__ float load_row(const float4* __restrict__ xr, int S4, int q, float scale,
                                          int lane, float4 (&v)[NV]) {
    float m = -INFINITY;
    #pragma unroll
    for (int k = 0; k < NV; ++k) {
        const int i4 = lane + 32 * k;
        const int c = i4 << 2;
        if (i4 < S4 && c <= q) {
            float4 a = __ldcs(xr + i4);
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
    return m;
}

template <int NV>
__device__ __forceinline__ float exp_row(float4 (&v)[NV], float m) {
    float s = 0.f;
    #pragma unroll
    for (int k = 0; k < NV; ++k) {
        v[k].x = __expf(v[k].x - m); v[k].y = __expf(v[k].y - m);
        v[k].z = __expf(v[k].z - m); v[k].w = __expf(v[k].w - m);
        s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    return s;
}

template <int NV>
__device__ __forceinline__ void store_row(float4* __restrict__ orow, int S4, int lane,
                                          const float4 (&v)[NV], float inv) {
    #pragma unroll
    for (int k = 0; k < NV; ++k) {
        const int i4 = lane + 32 * k;
        if (i4 < S4) __stcs(orow + i4, make_float4(v[k].x * inv, v[k].y * inv, v[k].z * inv, v[k].w * inv));
    }
}

template <int NV>
__global__ void __launch_bounds__(NT, 2) causal_softmax_paired_kernel(const float* __restrict__ x,
                                                                      float* __restrict__ out,
                                                                      long long nmat, int S, float scale) {
    const int lane = threadIdx.x & 31;
    const long long gw = (long long)blockIdx.x * WPB + (threadIdx.x >> 5);
    const long long nwarps = (long long)gridDim.x * WPB;
    const int npairs = (S + 1) >> 1;
    const long long items = nmat * npairs;
    const int S4 = S >> 2;
    for (long long it = gw; it < items; it += nwarps) {      // warp-uniform loop
        const long long mat = it / npairs;
        const int qa = (int)(it - mat * npairs);
        const int qb = S - 1 - qa;
        const bool hasb = qb != qa;                          // odd S: the middle row is alone
        const long long rowa = mat * S + qa;
        const long long rowb = mat * S + qb;
        float4 va[NV], vb[NV];
        float ma = load_row<NV>(reinterpret_cast<const float4*>(x + rowa * S), S4, qa, scale, lane, va);
        float mb = 0.f;
        if (hasb) mb = load_row<NV>(reinterpret_cast<const float4*>(x + rowb * S), S4, qb, scale, lane, vb);
        #pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            ma = fmaxf(ma, __shfl_xor_sync(FULL, ma, o));
            mb = fmaxf(mb, __shfl_xor_sync(FULL, mb, o));
        }
        float sa = exp_row<NV>(va, ma);
        float sb = 1.f;
        if (hasb) sb = exp_row<NV>(vb, mb);
        #pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            sa += __shfl_xor_sync(FULL, sa, o);
            sb += __shfl_xor_sync(FULL, sb, o);
        }
        store_row<NV>(reinterpret_cast<float4*>(out + rowa * S), S4, lane, va, 1.f / sa);
        if (hasb) store_row<NV>(reinterpret_cast<float4*>(out + rowb * S), S4, lane, vb, 1.f / sb);
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

template <int NV>
static void launch_paired(const float* xp, float* op, long long nmat, int S, float sc) {
    int dev = 0, sms = 0, occ = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, causal_softmax_paired_kernel<NV>, NT, 0);
    if (sms < 1) sms = 1;
    if (occ < 1) occ = 1;
    const long long items = nmat * (long long)((S + 1) / 2);
    long long grid = (long long)sms * occ;
    const long long need = (items + WPB - 1) / WPB;
    if (grid > need) grid = need;
    if (grid < 1) grid = 1;
    causal_softmax_paired_kernel<NV><<<(unsigned)grid, NT>>>(xp, op, nmat, S, sc);
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
    const long long nmat = rows / S;
    const float* xp = xc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const float sc = (float)scale;
    const bool vec = (S % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(op) & 15) == 0);
    if (vec && S <= 128)       launch_paired<1>(xp, op, nmat, S, sc);
    else if (vec && S <= 256)  launch_paired<2>(xp, op, nmat, S, sc);
    else if (vec && S <= 512)  launch_paired<4>(xp, op, nmat, S, sc);
    else if (vec && S <= 1024) launch_paired<8>(xp, op, nmat, S, sc);
    else causal_softmax_warp_scalar_kernel<<<(unsigned)((rows + WPB - 1) / WPB), NT>>>(xp, op, rows, S, sc);
    return out;
}
"""

my_mod = load_inline(
    name="cs_persistent_paired_rows_s44",
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
