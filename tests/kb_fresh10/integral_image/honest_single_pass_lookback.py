# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor integral_image_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Single-pass SAT with decoupled look-back across horizontal bands.
// Each block takes a band of RB rows x full width (tile order from an atomic ticket, so a block only
// ever waits on blocks that already started). The band is held in registers (one float4 column group
// per thread per row): all RB row scans are done at once (in-thread + warp shuffle + one shared-memory
// level), then a column prefix down the band. The band's column totals are published as an aggregate,
// the block looks back over predecessor bands (aggregate or inclusive prefix) to get the column carry,
// publishes its own inclusive prefix and streams the finished band out. x read once, out written once.
// Shapes the register path cannot take (W % 4 != 0, W > 2048, misaligned) use a two-kernel fallback.

#define RB 16
#define MAXT 512
#define FULL 0xffffffffu

__device__ __forceinline__ float4 f4add(float4 a, float4 b) {
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__global__ void __launch_bounds__(MAXT) ii_lookback_kernel(const float* __restrict__ x,
                                                           float* __restrict__ out,
                                                           float4* __restrict__ agg,
                                                           float4* __restrict__ incl,
                                                           int* __restrict__ flags,
                                                           int* __restrict__ ticket,
                                                           int H, int W, int nb) {
    __shared__ float wsum[RB][MAXT / 32 + 1];
    __shared__ int s_tile, s_status;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const int nw = blockDim.x >> 5;
    const int T = blockDim.x;
    if (t == 0) s_tile = atomicAdd(ticket, 1);
    __syncthreads();
    const int tile = s_tile;
    const int b = tile / nb;
    const int band = tile - b * nb;
    const int r0 = band * RB;
    const int W4 = W >> 2;
    const bool colok = t < W4;
    const float4* xb = reinterpret_cast<const float4*>(x + ((long long)b * H + r0) * W);

    float4 v[RB];
    #pragma unroll
    for (int r = 0; r < RB; ++r) {
        v[r] = make_float4(0.f, 0.f, 0.f, 0.f);
        if (colok && r0 + r < H) v[r] = __ldcs(xb + (long long)r * W4 + t);
    }

    // row scans of all RB rows: in-thread over the float4, then across lanes
    float ex[RB];
    #pragma unroll
    for (int r = 0; r < RB; ++r) {
        v[r].y += v[r].x; v[r].z += v[r].y; v[r].w += v[r].z;
        float s = v[r].w;
        #pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const float n = __shfl_up_sync(FULL, s, o);
            if (lane >= o) s += n;
        }
        const float e = __shfl_up_sync(FULL, s, 1);
        ex[r] = (lane == 0) ? 0.f : e;
        if (lane == 31) wsum[r][warp] = s;
    }
    __syncthreads();
    if (t < RB) {   // exclusive scan of warp totals, one thread per row
        float run = 0.f;
        for (int w = 0; w < nw; ++w) {
            const float u = wsum[t][w];
            wsum[t][w] = run;
            run += u;
        }
    }
    __syncthreads();
    #pragma unroll
    for (int r = 0; r < RB; ++r) {
        const float add = ex[r] + wsum[r][warp];
        v[r].x += add; v[r].y += add; v[r].z += add; v[r].w += add;
    }
    // column prefix inside the band
    #pragma unroll
    for (int r = 1; r < RB; ++r) v[r] = f4add(v[r], v[r - 1]);

    const long long slot = (long long)tile * T + t;
    float4 pre = make_float4(0.f, 0.f, 0.f, 0.f);
    if (band == 0) {
        __stcg(incl + slot, v[RB - 1]);
        __threadfence();
        __syncthreads();
        if (t == 0) atomicExch(flags + tile, 2);
    } else {
        __stcg(agg + slot, v[RB - 1]);
        __threadfence();
        __syncthreads();
        if (t == 0) atomicExch(flags + tile, 1);
        int p = tile - 1;                  // band 0 of this image publishes status 2, so this terminates
        while (true) {
            if (t == 0) {
                int s;
                while ((s = *((volatile int*)(flags + p))) == 0) __nanosleep(32);
                __threadfence();
                s_status = s;
            }
            __syncthreads();
            const int s = s_status;
            const float4 a = __ldcg((s == 2 ? incl : agg) + (long long)p * T + t);
            pre = f4add(pre, a);
            __syncthreads();               // s_status is rewritten in the next round
            if (s == 2) break;
            --p;
        }
        __stcg(incl + slot, f4add(pre, v[RB - 1]));
        __threadfence();
        __syncthreads();
        if (t == 0) atomicExch(flags + tile, 2);
    }

    float4* ob = reinterpret_cast<float4*>(out + ((long long)b * H + r0) * W);
    #pragma unroll
    for (int r = 0; r < RB; ++r) {
        if (colok && r0 + r < H) __stcs(ob + (long long)r * W4 + t, f4add(v[r], pre));
    }
}

// ---------------- fallback: warp-per-row scan, then thread-per-column scan ----------------
__global__ void ii_fb_row_kernel(const float* __restrict__ x, float* __restrict__ out, long long nrows, int W) {
    const int lane = threadIdx.x & 31;
    const long long r = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (r >= nrows) return;
    const float* xp = x + r * (long long)W;
    float* op = out + r * (long long)W;
    float carry = 0.f;
    for (int base = 0; base < W; base += 32) {
        const int j = base + lane;
        float s = (j < W) ? xp[j] : 0.f;
        #pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const float n = __shfl_up_sync(FULL, s, o);
            if (lane >= o) s += n;
        }
        if (j < W) op[j] = carry + s;
        carry += __shfl_sync(FULL, s, 31);
    }
}

__global__ void ii_fb_col_kernel(float* __restrict__ out, long long ncols, int H, int W) {
    const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= ncols) return;
    const long long b = c / W;
    const int j = (int)(c - b * W);
    float* p = out + b * (long long)H * W + j;
    float acc = 0.f;
    for (int i = 0; i < H; ++i) {
        acc += p[(long long)i * W];
        p[(long long)i * W] = acc;
    }
}

torch::Tensor integral_image_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 2, "x must have at least 2 dims");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    if (xc.numel() == 0) return out;
    const int H = (int)xc.size(-2);
    const int W = (int)xc.size(-1);
    const long long B = xc.numel() / ((long long)H * W);
    const float* xp = xc.data_ptr<float>();
    float* op = out.data_ptr<float>();

    const int nb = (H + RB - 1) / RB;
    const long long ntiles = B * nb;
    const bool fast = (W % 4 == 0) && (W / 4 <= MAXT) &&
                      ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
                      ((reinterpret_cast<uintptr_t>(op) & 15) == 0) &&
                      (ntiles < (1LL << 30));
    if (fast) {
        const int T = ((W / 4 + 31) / 32) * 32;
        auto agg = torch::empty({ntiles * T * 4}, xc.options());
        auto incl = torch::empty({ntiles * T * 4}, xc.options());
        auto flags = torch::zeros({ntiles + 1}, xc.options().dtype(torch::kInt32));
        int* fp = flags.data_ptr<int>();
        ii_lookback_kernel<<<(unsigned)ntiles, T>>>(
            xp, op, reinterpret_cast<float4*>(agg.data_ptr<float>()),
            reinterpret_cast<float4*>(incl.data_ptr<float>()), fp, fp + ntiles, H, W, nb);
    } else {
        const long long nrows = B * H;
        ii_fb_row_kernel<<<(unsigned)((nrows + 7) / 8), 256>>>(xp, op, nrows, W);
        const long long ncols = B * W;
        ii_fb_col_kernel<<<(unsigned)((ncols + 255) / 256), 256>>>(op, ncols, H, W);
    }
    return out;
}
"""

my_mod = load_inline(
    name="ii_single_pass_lookback_s44",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["integral_image_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.integral_image_cuda(x)
