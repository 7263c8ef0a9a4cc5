# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
// Strategy: block-per-row LSD radix sort in shared memory. Floats are mapped to order-preserving
// uint32 keys, then 8 passes of 4-bit digits. Each pass: every thread counts the digits of its 4
// consecutive keys into its own column of a [16 digits][256 threads] counter table, the table is
// exclusive-scanned (warp shuffles + per-warp totals), and each thread scatters its keys stably.
#include <torch/extension.h>
#include <cuda_runtime.h>

#define RT 256
#define IPT 4
#define MAXN (RT * IPT)
#define BINS 16
#define RBITS 4
#define CPAD(i) ((i) + ((i) >> 5))
#define CNT_SIZE (BINS * RT + (BINS * RT) / 32)

__device__ __forceinline__ unsigned f2key(float f) {
    unsigned u = __float_as_uint(f);
    return u ^ ((u >> 31) ? 0xFFFFFFFFu : 0x80000000u);
}
__device__ __forceinline__ float key2f(unsigned k) {
    return __uint_as_float(k ^ ((k >> 31) ? 0x80000000u : 0xFFFFFFFFu));
}

__global__ void __launch_bounds__(RT) radix_sort_rows_kernel(const float* __restrict__ x,
                                                             float* __restrict__ out, int cols) {
    __shared__ __align__(16) unsigned keysA[MAXN];
    __shared__ __align__(16) unsigned keysB[MAXN];
    __shared__ unsigned cnt[CNT_SIZE];
    __shared__ unsigned warpSums[RT / 32];

    const int t = threadIdx.x;
    const int lane = t & 31;
    const int warp = t >> 5;
    const long long row = blockIdx.x;
    const float* xr = x + row * cols;
    float* orow = out + row * cols;

    for (int i = t; i < cols; i += RT) keysA[i] = f2key(xr[i]);
    __syncthreads();

    unsigned* src = keysA;
    unsigned* dst = keysB;
    const int base = t * IPT;

    for (int shift = 0; shift < 32; shift += RBITS) {
        // 1) per-thread digit histogram in this thread's own column
#pragma unroll
        for (int d = 0; d < BINS; ++d) cnt[CPAD(d * RT + t)] = 0;
        uint4 kv = reinterpret_cast<const uint4*>(src)[t];
        unsigned k[IPT] = {kv.x, kv.y, kv.z, kv.w};
#pragma unroll
        for (int e = 0; e < IPT; ++e) {
            if (base + e < cols) {
                unsigned d = (k[e] >> shift) & (BINS - 1);
                cnt[CPAD(d * RT + t)] += 1u;
            }
        }
        __syncthreads();

        // 2) exclusive scan of the table in (digit, thread) order; 16 consecutive entries per thread
        unsigned loc[BINS];
        unsigned sum = 0;
#pragma unroll
        for (int q = 0; q < BINS; ++q) {
            loc[q] = cnt[CPAD(t * BINS + q)];
            sum += loc[q];
        }
        unsigned incl = sum;
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            unsigned n = __shfl_up_sync(0xffffffffu, incl, off);
            if (lane >= off) incl += n;
        }
        if (lane == 31) warpSums[warp] = incl;
        __syncthreads();
        if (warp == 0) {
            unsigned ws = (lane < RT / 32) ? warpSums[lane] : 0u;
            unsigned wi = ws;
#pragma unroll
            for (int off = 1; off < 32; off <<= 1) {
                unsigned n = __shfl_up_sync(0xffffffffu, wi, off);
                if (lane >= off) wi += n;
            }
            if (lane < RT / 32) warpSums[lane] = wi - ws;
        }
        __syncthreads();
        unsigned run = warpSums[warp] + incl - sum;
#pragma unroll
        for (int q = 0; q < BINS; ++q) {
            cnt[CPAD(t * BINS + q)] = run;
            run += loc[q];
        }
        __syncthreads();

        // 3) stable scatter: thread order, then element order within the thread
#pragma unroll
        for (int e = 0; e < IPT; ++e) {
            if (base + e < cols) {
                unsigned d = (k[e] >> shift) & (BINS - 1);
                unsigned pos = cnt[CPAD(d * RT + t)];
                cnt[CPAD(d * RT + t)] = pos + 1u;
                dst[pos] = k[e];
            }
        }
        __syncthreads();
        unsigned* tmp = src;
        src = dst;
        dst = tmp;
    }

    for (int i = t; i < cols; i += RT) orow[i] = key2f(src[i]);
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    long long rows = xc.size(0);
    long long cols64 = xc.size(1);
    if (rows == 0 || cols64 == 0) return out;
    TORCH_CHECK(cols64 <= MAXN, "this kernel supports rows of at most 1024 elements");
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");
    radix_sort_rows_kernel<<<(unsigned)rows, RT>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), (int)cols64);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_sort_rows_smem_radix",
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
