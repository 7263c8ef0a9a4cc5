# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Single-pass chained scan with decoupled look-back (Merrill & Garland style).
# Each row is cut into 4096-element tiles (256 threads x 16 values held in registers,
# loaded as float4 when aligned).  Tiles are handed out in order through an atomic
# ticket so a tile only ever waits on tiles that are already running.  Every tile
# publishes {flag, value} packed into one 64-bit word: AGGREGATE (its own sum) right
# away, INCLUSIVE PREFIX once known.  Warp 0 looks back 32 predecessors at a time,
# summing aggregates until it meets an inclusive prefix or the start of the row.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define LB_THREADS 256
#define LB_WARPS (LB_THREADS / 32)
#define LB_ITEMS 16
#define LB_TILE (LB_THREADS * LB_ITEMS)
#define FULL_MASK 0xffffffffu

#define FLAG_INVALID 0ull
#define FLAG_AGGREGATE 1ull
#define FLAG_PREFIX 2ull

__device__ __forceinline__ unsigned long long pack_status(unsigned long long flag, float v) {
    return (flag << 32) | (unsigned long long)__float_as_uint(v);
}

__device__ __forceinline__ void store_status(unsigned long long* p, unsigned long long v) {
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ unsigned long long load_status(const unsigned long long* p) {
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__global__ void __launch_bounds__(LB_THREADS)
exclusive_cumsum_lookback_kernel(const float* __restrict__ x, float* __restrict__ out,
                                 unsigned long long* __restrict__ status,
                                 unsigned long long* __restrict__ ticket,
                                 int N, int tilesPerRow, bool vec) {
    __shared__ unsigned long long s_tile;
    __shared__ float warp_excl[LB_WARPS];
    __shared__ float s_aggregate;
    __shared__ float s_prefix;

    const int t = threadIdx.x;
    const int lane = t & 31;
    const int w = t >> 5;

    if (t == 0) s_tile = atomicAdd(ticket, 1ull);
    __syncthreads();
    const long long tile = (long long)s_tile;
    const int row = (int)(tile / tilesPerRow);
    const int c = (int)(tile % tilesPerRow);
    const float* xr = x + (size_t)row * N;
    float* orow = out + (size_t)row * N;
    const int j0 = c * LB_TILE + t * LB_ITEMS;   // first column owned by this thread

    float v[LB_ITEMS];
    if (vec && j0 + LB_ITEMS <= N) {
        const float4* src = reinterpret_cast<const float4*>(xr + j0);
        #pragma unroll
        for (int q = 0; q < LB_ITEMS / 4; ++q) {
            float4 f = __ldg(src + q);
            v[4 * q] = f.x; v[4 * q + 1] = f.y; v[4 * q + 2] = f.z; v[4 * q + 3] = f.w;
        }
    } else {
        #pragma unroll
        for (int i = 0; i < LB_ITEMS; ++i) v[i] = (j0 + i < N) ? xr[j0 + i] : 0.0f;
    }

    // in-thread exclusive scan
    float tsum = 0.0f;
    #pragma unroll
    for (int i = 0; i < LB_ITEMS; ++i) {
        float e = tsum;
        tsum += v[i];
        v[i] = e;
    }

    // block-wide exclusive scan of thread totals
    float incl = tsum;
    #pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        float n = __shfl_up_sync(FULL_MASK, incl, off);
        if (lane >= off) incl += n;
    }
    if (lane == 31) warp_excl[w] = incl;
    __syncthreads();
    if (w == 0) {
        float ws = (lane < LB_WARPS) ? warp_excl[lane] : 0.0f;
        float wincl = ws;
        #pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            float n = __shfl_up_sync(FULL_MASK, wincl, off);
            if (lane >= off) wincl += n;
        }
        float wexcl = __shfl_up_sync(FULL_MASK, wincl, 1);
        if (lane == 0) wexcl = 0.0f;
        if (lane < LB_WARPS) warp_excl[lane] = wexcl;
        if (lane == 31) s_aggregate = wincl;
    }
    __syncthreads();
    float lane_excl = __shfl_up_sync(FULL_MASK, incl, 1);
    if (lane == 0) lane_excl = 0.0f;
    const float thread_excl = warp_excl[w] + lane_excl;

    // publish + decoupled look-back (warp 0 only)
    if (w == 0) {
        const float aggregate = s_aggregate;
        if (lane == 0) {
            store_status(status + tile,
                         pack_status(c == 0 ? FLAG_PREFIX : FLAG_AGGREGATE, aggregate));
        }
        float exclusive = 0.0f;
        if (c > 0) {
            const long long rowFirst = tile - c;   // first tile of this row
            long long pred = tile - 1;
            while (true) {
                const long long idx = pred - lane;
                unsigned long long flag;
                float val;
                if (idx >= rowFirst) {
                    unsigned long long st;
                    do {
                        st = load_status(status + idx);
                        flag = st >> 32;
                    } while (flag == FLAG_INVALID);
                    val = __uint_as_float((unsigned)(st & 0xffffffffull));
                } else {
                    flag = FLAG_PREFIX;   // before the row start: behaves like a zero prefix
                    val = 0.0f;
                }
                const unsigned pmask = __ballot_sync(FULL_MASK, flag == FLAG_PREFIX);
                // lowest lane = nearest predecessor holding an inclusive prefix
                const int stop = pmask ? (__ffs(pmask) - 1) : 31;
                float contrib = (lane <= stop) ? val : 0.0f;
                #pragma unroll
                for (int off = 16; off > 0; off >>= 1) contrib += __shfl_xor_sync(FULL_MASK, contrib, off);
                exclusive += contrib;
                if (pmask) break;
                pred -= 32;
            }
            if (lane == 0) store_status(status + tile, pack_status(FLAG_PREFIX, exclusive + aggregate));
        }
        if (lane == 0) s_prefix = exclusive;
    }
    __syncthreads();

    const float offset = s_prefix + thread_excl;
    if (vec && j0 + LB_ITEMS <= N) {
        float4* dst = reinterpret_cast<float4*>(orow + j0);
        #pragma unroll
        for (int q = 0; q < LB_ITEMS / 4; ++q) {
            dst[q] = make_float4(offset + v[4 * q], offset + v[4 * q + 1],
                                 offset + v[4 * q + 2], offset + v[4 * q + 3]);
        }
    } else {
        #pragma unroll
        for (int i = 0; i < LB_ITEMS; ++i)
            if (j0 + i < N) orow[j0 + i] = offset + v[i];
    }
}

torch::Tensor exclusive_cumsum_cuda(torch::Tensor x, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D (B, N)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int B = (int)xc.size(0);
    const int N = (int)xc.size(1);
    if (B == 0 || N == 0) return out;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    const int tilesPerRow = (N + LB_TILE - 1) / LB_TILE;
    const long long numTiles = (long long)B * tilesPerRow;
    TORCH_CHECK(numTiles < (1ll << 31), "too many tiles");
    // status words for every tile + one ticket counter, all zero (FLAG_INVALID) per call
    auto scratch = torch::zeros({numTiles + 1}, xc.options().dtype(torch::kInt64));
    unsigned long long* status = reinterpret_cast<unsigned long long*>(scratch.data_ptr<int64_t>());
    unsigned long long* ticket = status + numTiles;

    const float* xp = xc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const bool vec = (N % 4 == 0) &&
                     (reinterpret_cast<uintptr_t>(xp) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(op) % 16 == 0);
    exclusive_cumsum_lookback_kernel<<<(unsigned)numTiles, LB_THREADS, 0, stream>>>(
        xp, op, status, ticket, N, tilesPerRow, vec);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_source = "torch::Tensor exclusive_cumsum_cuda(torch::Tensor x, int64_t stream_ptr);"

_ext = load_inline(
    name="exclusive_cumsum_decoupled_lookback",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["exclusive_cumsum_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2 and self.dim in (1, -1), "kernel scans along dim 1 of a 2-D tensor"
        return _ext.exclusive_cumsum_cuda(x, torch.cuda.current_stream(x.device).cuda_stream)
