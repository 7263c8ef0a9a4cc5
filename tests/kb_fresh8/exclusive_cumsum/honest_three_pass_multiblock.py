# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Reduce-then-scan over a 2-D grid (chunks x rows) so many blocks work on each row:
#   1) chunk_sum: every 2048-element chunk is reduced to one number;
#   2) chunk_offsets: one warp per row turns those sums into exclusive chunk offsets;
#   3) chunk_scan: each chunk is staged in padded shared memory, every thread scans
#      8 consecutive values in registers, thread totals are scanned with warp shuffles,
#      and the result (plus the chunk offset) is written back coalesced.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TP_THREADS 256
#define TP_ITEMS 8
#define TP_CHUNK (TP_THREADS * TP_ITEMS)
#define TP_WARPS (TP_THREADS / 32)
#define FULL_MASK 0xffffffffu
// one padding word every 32 words -> conflict-free strided and blocked access
#define PAD_IDX(i) ((i) + ((i) >> 5))

__global__ void __launch_bounds__(TP_THREADS)
chunk_sum_kernel(const float* __restrict__ x, float* __restrict__ sums, int N, int nChunks) {
    __shared__ float warp_part[TP_WARPS];
    const int c = blockIdx.x;
    const int row = blockIdx.y;
    const int t = threadIdx.x;
    const float* xr = x + (size_t)row * N;
    const int base = c * TP_CHUNK;
    float s = 0.0f;
    #pragma unroll
    for (int i = 0; i < TP_ITEMS; ++i) {
        int j = base + i * TP_THREADS + t;
        if (j < N) s += __ldg(xr + j);
    }
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(FULL_MASK, s, off);
    if ((t & 31) == 0) warp_part[t >> 5] = s;
    __syncthreads();
    if (t < 32) {
        float v = (t < TP_WARPS) ? warp_part[t] : 0.0f;
        #pragma unroll
        for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL_MASK, v, off);
        if (t == 0) sums[(size_t)row * nChunks + c] = v;
    }
}

// One warp per row: in-place exclusive scan of the chunk sums.
__global__ void chunk_offsets_kernel(float* __restrict__ sums, int nChunks) {
    const int row = blockIdx.x;
    const int lane = threadIdx.x;
    float* s = sums + (size_t)row * nChunks;
    float carry = 0.0f;
    for (int base = 0; base < nChunks; base += 32) {
        const int i = base + lane;
        const float v = (i < nChunks) ? s[i] : 0.0f;
        float incl = v;
        #pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            float n = __shfl_up_sync(FULL_MASK, incl, off);
            if (lane >= off) incl += n;
        }
        float excl = __shfl_up_sync(FULL_MASK, incl, 1);
        if (lane == 0) excl = 0.0f;
        if (i < nChunks) s[i] = carry + excl;
        carry += __shfl_sync(FULL_MASK, incl, 31);
    }
}

__global__ void __launch_bounds__(TP_THREADS)
chunk_scan_kernel(const float* __restrict__ x, const float* __restrict__ offsets,
                  float* __restrict__ out, int N, int nChunks) {
    __shared__ float tile[PAD_IDX(TP_CHUNK)];
    __shared__ float warp_excl[TP_WARPS];
    const int c = blockIdx.x;
    const int row = blockIdx.y;
    const int t = threadIdx.x;
    const int lane = t & 31;
    const int w = t >> 5;
    const float* xr = x + (size_t)row * N;
    float* orow = out + (size_t)row * N;
    const int base = c * TP_CHUNK;

    // coalesced load into shared memory
    #pragma unroll
    for (int i = 0; i < TP_ITEMS; ++i) {
        int idx = i * TP_THREADS + t;
        int j = base + idx;
        tile[PAD_IDX(idx)] = (j < N) ? __ldg(xr + j) : 0.0f;
    }
    __syncthreads();

    // blocked: thread t owns elements [t*ITEMS, t*ITEMS + ITEMS)
    float v[TP_ITEMS];
    float tsum = 0.0f;
    #pragma unroll
    for (int i = 0; i < TP_ITEMS; ++i) {
        v[i] = tile[PAD_IDX(t * TP_ITEMS + i)];
        tsum += v[i];
    }

    float incl = tsum;
    #pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        float n = __shfl_up_sync(FULL_MASK, incl, off);
        if (lane >= off) incl += n;
    }
    if (lane == 31) warp_excl[w] = incl;
    __syncthreads();
    if (w == 0) {
        float ws = (lane < TP_WARPS) ? warp_excl[lane] : 0.0f;
        float wincl = ws;
        #pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            float n = __shfl_up_sync(FULL_MASK, wincl, off);
            if (lane >= off) wincl += n;
        }
        float wexcl = __shfl_up_sync(FULL_MASK, wincl, 1);
        if (lane == 0) wexcl = 0.0f;
        if (lane < TP_WARPS) warp_excl[lane] = wexcl;
    }
    __syncthreads();

    float lane_excl = __shfl_up_sync(FULL_MASK, incl, 1);
    if (lane == 0) lane_excl = 0.0f;
    float run = offsets[(size_t)row * nChunks + c] + (warp_excl[w] + lane_excl);
    #pragma unroll
    for (int i = 0; i < TP_ITEMS; ++i) {
        tile[PAD_IDX(t * TP_ITEMS + i)] = run;   // exclusive value
        run += v[i];
    }
    __syncthreads();

    #pragma unroll
    for (int i = 0; i < TP_ITEMS; ++i) {
        int idx = i * TP_THREADS + t;
        int j = base + idx;
        if (j < N) orow[j] = tile[PAD_IDX(idx)];
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
    TORCH_CHECK(B <= 65535, "batch too large for gridDim.y");
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    const int nChunks = (N + TP_CHUNK - 1) / TP_CHUNK;
    auto sums = torch::empty({B, nChunks}, xc.options());
    dim3 grid(nChunks, B);
    chunk_sum_kernel<<<grid, TP_THREADS, 0, stream>>>(xc.data_ptr<float>(), sums.data_ptr<float>(), N, nChunks);
    chunk_offsets_kernel<<<B, 32, 0, stream>>>(sums.data_ptr<float>(), nChunks);
    chunk_scan_kernel<<<grid, TP_THREADS, 0, stream>>>(xc.data_ptr<float>(), sums.data_ptr<float>(),
                                                       out.data_ptr<float>(), N, nChunks);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_source = "torch::Tensor exclusive_cumsum_cuda(torch::Tensor x, int64_t stream_ptr);"

_ext = load_inline(
    name="exclusive_cumsum_three_pass_multiblock",
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
