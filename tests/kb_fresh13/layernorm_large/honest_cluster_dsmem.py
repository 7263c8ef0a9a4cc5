# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor ln_forward_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <stdint.h>
// Single fused kernel using Hopper thread-block clusters: each row is owned by a cluster of 8 blocks,
// every block reduces sum / sum of squares of its slice (float4, 4 loads in flight, warp shuffles),
// publishes it in shared memory, and after cluster.sync() each block reads the 8 partials through
// distributed shared memory (map_shared_rank) to get mean / rstd.  The normalise pass then walks the
// slice backwards so that the most recently read (still L2-resident) part of x is reused first.

namespace cg = cooperative_groups;

#define CL_SIZE 8
#define CL_THREADS 512
#define CL_UNROLL 4

__device__ __forceinline__ float warp_sum_f(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__device__ __forceinline__ float4 ln_affine4(float4 v, float4 ww, float4 bb, float mean, float rstd) {
    float4 o;
    o.x = (v.x - mean) * rstd * ww.x + bb.x;
    o.y = (v.y - mean) * rstd * ww.y + bb.y;
    o.z = (v.z - mean) * rstd * ww.z + bb.z;
    o.w = (v.w - mean) * rstd * ww.w + bb.w;
    return o;
}

__global__ void __cluster_dims__(CL_SIZE, 1, 1) __launch_bounds__(CL_THREADS, 2)
ln_cluster_kernel(const float* __restrict__ x, const float* __restrict__ w,
                  const float* __restrict__ b, float* __restrict__ y,
                  long long rows, long long D, long long chunk, float eps, int vec) {
    __shared__ float s_ws[CL_THREADS / 32];
    __shared__ float s_wq[CL_THREADS / 32];
    __shared__ float2 s_part;   // this block's (sum, sumsq), read by the whole cluster
    __shared__ float2 s_mr;     // (mean, rstd) of the current row

    cg::cluster_group cluster = cg::this_cluster();
    const unsigned int rank = cluster.block_rank();
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;

    const long long beg = (long long)rank * chunk;
    long long end = beg + chunk;
    if (end > D) end = D;
    const long long len = (end > beg) ? (end - beg) : 0;

    // the row loop is uniform across the cluster (all its blocks share blockIdx.y)
    for (long long row = blockIdx.y; row < rows; row += gridDim.y) {
        const float* xs = x + row * D + beg;
        float* ys = y + row * D + beg;
        const float* wsl = w + beg;
        const float* bsl = b + beg;

        float s = 0.f, q = 0.f;
        if (vec) {
            const float4* x4 = reinterpret_cast<const float4*>(xs);
            const long long n4 = len >> 2;
            long long i = tid;
            for (; i + (CL_UNROLL - 1) * CL_THREADS < n4; i += CL_UNROLL * CL_THREADS) {
                float4 v[CL_UNROLL];
                #pragma unroll
                for (int u = 0; u < CL_UNROLL; ++u) v[u] = __ldg(x4 + i + u * CL_THREADS);
                #pragma unroll
                for (int u = 0; u < CL_UNROLL; ++u) {
                    s += (v[u].x + v[u].y) + (v[u].z + v[u].w);
                    q += (v[u].x * v[u].x + v[u].y * v[u].y) + (v[u].z * v[u].z + v[u].w * v[u].w);
                }
            }
            for (; i < n4; i += CL_THREADS) {
                float4 v = __ldg(x4 + i);
                s += (v.x + v.y) + (v.z + v.w);
                q += (v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w);
            }
        } else {
            for (long long i = tid; i < len; i += CL_THREADS) {
                float v = __ldg(xs + i);
                s += v;
                q += v * v;
            }
        }

        s = warp_sum_f(s);
        q = warp_sum_f(q);
        if (lane == 0) { s_ws[warp] = s; s_wq[warp] = q; }
        __syncthreads();
        if (warp == 0) {
            float a = (lane < CL_THREADS / 32) ? s_ws[lane] : 0.f;
            float c = (lane < CL_THREADS / 32) ? s_wq[lane] : 0.f;
            a = warp_sum_f(a);
            c = warp_sum_f(c);
            if (lane == 0) s_part = make_float2(a, c);
        }
        cluster.sync();  // all partials of this row are published

        if (tid == 0) {
            double S = 0.0, Q = 0.0;
            #pragma unroll
            for (unsigned int r = 0; r < CL_SIZE; ++r) {
                const float2* p = cluster.map_shared_rank(&s_part, r);
                float2 v = *p;
                S += (double)v.x;
                Q += (double)v.y;
            }
            double mean = S / (double)D;
            double var = Q / (double)D - mean * mean;
            if (var < 0.0) var = 0.0;
            s_mr = make_float2((float)mean, rsqrtf((float)var + eps));
        }
        // remote reads of s_part are finished before anyone overwrites it (next row), and s_mr is visible
        cluster.sync();
        const float mean = s_mr.x;
        const float rstd = s_mr.y;

        if (vec) {
            const float4* x4 = reinterpret_cast<const float4*>(xs);
            const float4* w4 = reinterpret_cast<const float4*>(wsl);
            const float4* b4 = reinterpret_cast<const float4*>(bsl);
            float4* y4 = reinterpret_cast<float4*>(ys);
            const long long n4 = len >> 2;
            const long long iters = (n4 + CL_THREADS - 1) / CL_THREADS;
            #pragma unroll 4
            for (long long it = iters - 1; it >= 0; --it) {
                const long long i = it * CL_THREADS + tid;
                if (i < n4) y4[i] = ln_affine4(__ldg(x4 + i), __ldg(w4 + i), __ldg(b4 + i), mean, rstd);
            }
        } else {
            const long long iters = (len + CL_THREADS - 1) / CL_THREADS;
            for (long long it = iters - 1; it >= 0; --it) {
                const long long i = it * CL_THREADS + tid;
                if (i < len) ys[i] = (__ldg(xs + i) - mean) * rstd * __ldg(wsl + i) + __ldg(bsl + i);
            }
        }
    }
}

static inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

torch::Tensor ln_forward_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto bc = bias.contiguous();
    const long long D = wc.numel();
    TORCH_CHECK(D > 0 && xc.numel() % D == 0, "shape mismatch");
    const long long rows = xc.numel() / D;
    auto out = torch::empty_like(xc);
    if (rows == 0) return out;

    const float* xp = xc.data_ptr<float>();
    const float* wp = wc.data_ptr<float>();
    const float* bp = bc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    const int vec = ((D & 3) == 0) && aligned16(xp) && aligned16(wp) && aligned16(bp) && aligned16(yp);

    long long chunk = (D + CL_SIZE - 1) / CL_SIZE;
    chunk = (chunk + 3) & ~3LL;  // slices start on float4 boundaries
    const long long gy = rows < 65535 ? rows : 65535;
    dim3 grid(CL_SIZE, (unsigned)gy);
    ln_cluster_kernel<<<grid, CL_THREADS>>>(xp, wp, bp, yp, rows, D, chunk, (float)eps, vec);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_layernorm_large_cluster_dsmem",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["ln_forward_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.ln_forward_cuda(x, self.ln.weight, self.ln.bias, self.ln.eps)
