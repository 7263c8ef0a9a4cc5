# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Single-pass chained scan with decoupled look-back. The length axis is split into
// chunks of NG*R rows, so there is one block per (batch, 128-column slab, chunk).
// Blocks take a ticket from an atomic counter (so every block only ever waits for
// blocks that are already running), scan their chunk in registers with float4 loads
// (warp g = R consecutive rows, lane = float4 column), publish their per-column chunk
// aggregate, then warp 0 walks back over predecessor chunks (aggregate / inclusive
// prefix flags) to get the running prefix, publishes its own inclusive prefix, and all
// threads write the result. x is read exactly once and y written once.
// Needs dim % 4 == 0 and 16-byte aligned data, else a scalar per-column kernel is used.

#define NG 8
#define R 8
#define CHUNK (NG * R)

__device__ __forceinline__ float4 add4(float4 a, float4 b) {
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__global__ void __launch_bounds__(NG * 32)
cumsum_lookback_kernel(const float4* __restrict__ x, float4* __restrict__ y,
                       int* __restrict__ ticket, volatile int* flags,
                       float4* agg, float4* incl,
                       int T, int D4, int nslab, int nchunk) {
    __shared__ int s_vid;
    __shared__ float4 tot[NG][32];
    __shared__ float4 s_prefix[32];
    if (threadIdx.x == 0) s_vid = atomicAdd(ticket, 1);
    __syncthreads();
    const int vid = s_vid;
    const int chunk = vid % nchunk;
    const int rest = vid / nchunk;
    const int slab = rest % nslab;
    const long long b = rest / nslab;
    const int lane = threadIdx.x & 31;
    const int g = threadIdx.x >> 5;
    const int c4 = slab * 32 + lane;
    const bool colok = c4 < D4;
    const float4 z = make_float4(0.f, 0.f, 0.f, 0.f);
    const int tb = chunk * CHUNK + g * R;
    const float4* xb = x + b * (long long)T * D4 + c4;
    float4* yb = y + b * (long long)T * D4 + c4;

    float4 v[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
        int t = tb + r;
        v[r] = (colok && t < T) ? __ldg(xb + (long long)t * D4) : z;
    }
#pragma unroll
    for (int r = 1; r < R; ++r) v[r] = add4(v[r], v[r - 1]);
    tot[g][lane] = v[R - 1];
    __syncthreads();

    float4 excl = z;
#pragma unroll
    for (int gg = 0; gg < NG; ++gg) {
        if (gg < g) excl = add4(excl, tot[gg][lane]);
    }

    if (g == 0) {
        float4 aggv = z;
#pragma unroll
        for (int gg = 0; gg < NG; ++gg) aggv = add4(aggv, tot[gg][lane]);
        const long long slot = (long long)vid * 32 + lane;
        float4 prefix = z;
        if (chunk == 0) {
            incl[slot] = aggv;
            __threadfence();
            __syncwarp();
            if (lane == 0) flags[vid] = 2;
        } else {
            agg[slot] = aggv;                      // publish aggregate early
            __threadfence();
            __syncwarp();
            if (lane == 0) flags[vid] = 1;
            int p = vid - 1;                       // previous chunk of the same (batch, slab)
            while (true) {
                int f;
                do { f = flags[p]; } while (f == 0);
                __threadfence();
                const long long ps = (long long)p * 32 + lane;
                if (f == 2) { prefix = add4(prefix, __ldcg(incl + ps)); break; }
                prefix = add4(prefix, __ldcg(agg + ps));
                --p;                               // chunk 0 always ends with flag 2
            }
            __syncwarp();
            incl[slot] = add4(prefix, aggv);
            __threadfence();
            __syncwarp();
            if (lane == 0) flags[vid] = 2;
        }
        s_prefix[lane] = prefix;
    }
    __syncthreads();
    const float4 off = add4(s_prefix[lane], excl);
#pragma unroll
    for (int r = 0; r < R; ++r) {
        int t = tb + r;
        if (colok && t < T) yb[(long long)t * D4] = add4(v[r], off);
    }
}

__global__ void cumsum_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     long long ncols, int T, int D) {
    long long col = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= ncols) return;
    long long b = col / D;
    int d = (int)(col - b * D);
    const float* xp = x + b * (long long)T * D + d;
    float* yp = y + b * (long long)T * D + d;
    float s = 0.f;
    for (int t = 0; t < T; ++t) { s += xp[(long long)t * D]; yp[(long long)t * D] = s; }
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "float32 expected");
    TORCH_CHECK(x.dim() == 3, "expected a 3-D tensor");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    long long Bn = xc.size(0);
    int T = (int)xc.size(1);
    int D = (int)xc.size(2);
    if (Bn == 0 || T == 0 || D == 0) return out;
    const float* xp = xc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    bool vec_ok = (D % 4 == 0) && (((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15) == 0);
    int D4 = D / 4;
    int nslab = (D4 + 31) / 32;
    int nchunk = (T + CHUNK - 1) / CHUNK;
    long long nblocks = Bn * (long long)nslab * nchunk;
    if (vec_ok && nblocks < 2147483647LL) {
        auto state = torch::zeros({nblocks + 1}, xc.options().dtype(torch::kInt32));
        auto aggt = torch::empty({nblocks * 128}, xc.options());
        auto inclt = torch::empty({nblocks * 128}, xc.options());
        int* st = state.data_ptr<int>();
        cumsum_lookback_kernel<<<(unsigned)nblocks, NG * 32>>>(
            reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp), st, st + 1,
            reinterpret_cast<float4*>(aggt.data_ptr<float>()), reinterpret_cast<float4*>(inclt.data_ptr<float>()),
            T, D4, nslab, nchunk);
    } else {
        long long ncols = Bn * D;
        const int threads = 256;
        cumsum_scalar_kernel<<<(unsigned)((ncols + threads - 1) / threads), threads>>>(xp, yp, ncols, T, D);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_cumsum_dim1_3d_decoupled_lookback_float4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x)
