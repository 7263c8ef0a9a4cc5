# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

masked_cumsum_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define TP_THREADS 256
#define TP_WARPS (TP_THREADS / 32)
#define TP_CHUNK4 TP_THREADS            /* float4 per chunk */
#define TP_CHUNK (TP_CHUNK4 * 4)        /* 1024 elements per chunk */
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float masked4(const float4 v, const uchar4 mk, float& p0, float& p1, float& p2) {
    p0 = mk.x ? v.x : 0.f;
    p1 = p0 + (mk.y ? v.y : 0.f);
    p2 = p1 + (mk.z ? v.z : 0.f);
    return p2 + (mk.w ? v.w : 0.f);
}

// Phase 1 (reduce): one block per (row, 1024-element chunk) computes the chunk's masked sum.
__global__ void __launch_bounds__(TP_THREADS)
chunk_sum_kernel(const float4* __restrict__ x4, const uchar4* __restrict__ m4, float* __restrict__ chunk_sums,
                 int L4, int nchunks) {
    __shared__ float s_warp[TP_WARPS];
    const int row = blockIdx.x / nchunks;
    const int c = blockIdx.x - row * nchunks;
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int idx = c * TP_CHUNK4 + tid;
    float s = 0.f;
    if (idx < L4) {
        const size_t g = (size_t)row * L4 + idx;
        float p0, p1, p2;
        s = masked4(x4[g], m4[g], p0, p1, p2);
    }
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(FULL_MASK, s, off);
    if (lane == 0) s_warp[warp] = s;
    __syncthreads();
    if (tid == 0) {
        float t = 0.f;
        #pragma unroll
        for (int w = 0; w < TP_WARPS; ++w) t += s_warp[w];
        chunk_sums[blockIdx.x] = t;
    }
}

// Phase 2: exclusive scan of the (few) chunk sums of each row, one thread per row.
__global__ void chunk_offsets_kernel(const float* __restrict__ chunk_sums, float* __restrict__ chunk_offs,
                                     int rows, int nchunks) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const size_t b = (size_t)row * nchunks;
    float acc = 0.f;
    for (int c = 0; c < nchunks; ++c) {
        chunk_offs[b + c] = acc;
        acc += chunk_sums[b + c];
    }
}

// Phase 3 (scan): every (row, chunk) block rescans its chunk (float4 per thread, warp-shuffle scan,
// warp totals in shared memory) seeded with the chunk's offset from phase 2.
__global__ void __launch_bounds__(TP_THREADS)
chunk_scan_kernel(const float4* __restrict__ x4, const uchar4* __restrict__ m4, const float* __restrict__ chunk_offs,
                  float4* __restrict__ o4, int L4, int nchunks) {
    __shared__ float s_warp[TP_WARPS];
    const int row = blockIdx.x / nchunks;
    const int c = blockIdx.x - row * nchunks;
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int idx = c * TP_CHUNK4 + tid;
    const size_t g = (size_t)row * L4 + idx;
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    uchar4 mk = make_uchar4(0, 0, 0, 0);
    if (idx < L4) {
        v = x4[g];
        mk = m4[g];
    }
    float p0, p1, p2;
    const float p3 = masked4(v, mk, p0, p1, p2);
    float t = p3;
    #pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        float y = __shfl_up_sync(FULL_MASK, t, off);
        if (lane >= off) t += y;
    }
    float ex = __shfl_up_sync(FULL_MASK, t, 1);
    if (lane == 0) ex = 0.f;
    if (lane == 31) s_warp[warp] = t;
    __syncthreads();
    if (warp == 0) {
        float w = (lane < TP_WARPS) ? s_warp[lane] : 0.f;
        #pragma unroll
        for (int off = 1; off < TP_WARPS; off <<= 1) {
            float y = __shfl_up_sync(FULL_MASK, w, off);
            if (lane >= off) w += y;
        }
        if (lane < TP_WARPS) s_warp[lane] = w;
    }
    __syncthreads();
    const float offs = chunk_offs[blockIdx.x] + (warp > 0 ? s_warp[warp - 1] : 0.f) + ex;
    if (idx < L4) o4[g] = make_float4(offs + p0, offs + p1, offs + p2, offs + p3);
}

torch::Tensor masked_cumsum_cuda(torch::Tensor x, torch::Tensor mask, int64_t dim, int64_t stream_handle) {
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    TORCH_CHECK(x.is_cuda() && mask.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(mask.scalar_type() == torch::kBool, "mask must be bool");
    TORCH_CHECK(x.sizes() == mask.sizes(), "x and mask must have the same shape");
    const int64_t nd = x.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim == nd - 1, "this kernel scans along the last (contiguous) dimension only");
    auto xc = x.contiguous();
    auto mc = mask.contiguous();
    auto out = torch::empty_like(xc);
    const int64_t L64 = xc.size(nd - 1);
    if (xc.numel() == 0 || L64 == 0) return out;
    const int64_t rows64 = xc.numel() / L64;
    TORCH_CHECK(L64 < (1LL << 31) && rows64 < (1LL << 31), "tensor too large");
    const int L = (int)L64;
    const int rows = (int)rows64;
    const float* xp = xc.data_ptr<float>();
    const unsigned char* mp = reinterpret_cast<const unsigned char*>(mc.data_ptr<bool>());
    float* op = out.data_ptr<float>();

    TORCH_CHECK(L % 4 == 0, "row length must be a multiple of 4 for vector loads");
    TORCH_CHECK((uintptr_t)xp % 16 == 0 && (uintptr_t)op % 16 == 0 && (uintptr_t)mp % 4 == 0, "misaligned inputs");
    const int L4 = L / 4;
    const int nchunks = (L4 + TP_CHUNK4 - 1) / TP_CHUNK4;
    const int64_t nblocks64 = (int64_t)rows * nchunks;
    TORCH_CHECK(nblocks64 < (1LL << 31), "too many chunks");
    const int nblocks = (int)nblocks64;
    auto chunk_sums = torch::empty({nblocks}, xc.options());
    auto chunk_offs = torch::empty({nblocks}, xc.options());
    const float4* x4 = reinterpret_cast<const float4*>(xp);
    const uchar4* m4 = reinterpret_cast<const uchar4*>(mp);
    chunk_sum_kernel<<<nblocks, TP_THREADS, 0, stream>>>(x4, m4, chunk_sums.data_ptr<float>(), L4, nchunks);
    chunk_offsets_kernel<<<(rows + 255) / 256, 256, 0, stream>>>(chunk_sums.data_ptr<float>(), chunk_offs.data_ptr<float>(),
                                                                rows, nchunks);
    chunk_scan_kernel<<<nblocks, TP_THREADS, 0, stream>>>(x4, m4, chunk_offs.data_ptr<float>(),
                                                         reinterpret_cast<float4*>(op), L4, nchunks);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "kernel launch failed");
    return out;
}
"""

masked_cumsum_cpp_source = "torch::Tensor masked_cumsum_cuda(torch::Tensor x, torch::Tensor mask, int64_t dim, int64_t stream_handle);"

masked_cumsum = load_inline(name="masked_cumsum_three_phase_chunked", cpp_sources=masked_cumsum_cpp_source, cuda_sources=masked_cumsum_source,
                            functions=["masked_cumsum_cuda"], verbose=False, extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return masked_cumsum.masked_cumsum_cuda(x, mask, self.dim, stream)
