# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# One 256-thread block per row; each iteration covers 1024 elements, each thread
# loading ONE float4 (fully coalesced 16-byte accesses).  The thread scans its 4
# values serially, thread totals are scanned with warp shuffles plus a warp-total
# scan, and results are stored back as float4.  The vector path is only taken when
# N % 4 == 0 and both pointers are 16-byte aligned; otherwise the same kernel is
# instantiated with guarded scalar loads/stores.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define V4_THREADS 256
#define V4_WARPS (V4_THREADS / 32)
#define V4_TILE (V4_THREADS * 4)
#define FULL_MASK 0xffffffffu

template <bool VEC>
__global__ void __launch_bounds__(V4_THREADS)
exclusive_cumsum_float4_kernel(const float* __restrict__ x, float* __restrict__ out, int N) {
    __shared__ float warp_excl[V4_WARPS];
    __shared__ float tile_total;
    const int row = blockIdx.x;
    const int t = threadIdx.x;
    const int lane = t & 31;
    const int w = t >> 5;
    const float* xr = x + (size_t)row * N;
    float* orow = out + (size_t)row * N;

    float carry = 0.0f;
    for (int base = 0; base < N; base += V4_TILE) {
        const int j = base + t * 4;
        float v0 = 0.f, v1 = 0.f, v2 = 0.f, v3 = 0.f;
        if (VEC) {
            if (j < N) {   // N % 4 == 0, so j < N implies j + 3 < N
                float4 q = __ldg(reinterpret_cast<const float4*>(xr + j));
                v0 = q.x; v1 = q.y; v2 = q.z; v3 = q.w;
            }
        } else {
            if (j     < N) v0 = xr[j];
            if (j + 1 < N) v1 = xr[j + 1];
            if (j + 2 < N) v2 = xr[j + 2];
            if (j + 3 < N) v3 = xr[j + 3];
        }
        const float p1 = v0 + v1;
        const float p2 = p1 + v2;
        const float tsum = p2 + v3;

        float incl = tsum;
        #pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            float n = __shfl_up_sync(FULL_MASK, incl, off);
            if (lane >= off) incl += n;
        }
        if (lane == 31) warp_excl[w] = incl;
        __syncthreads();
        if (w == 0) {
            float ws = (lane < V4_WARPS) ? warp_excl[lane] : 0.0f;
            float wincl = ws;
            #pragma unroll
            for (int off = 1; off < 32; off <<= 1) {
                float n = __shfl_up_sync(FULL_MASK, wincl, off);
                if (lane >= off) wincl += n;
            }
            float wexcl = __shfl_up_sync(FULL_MASK, wincl, 1);
            if (lane == 0) wexcl = 0.0f;
            if (lane < V4_WARPS) warp_excl[lane] = wexcl;
            if (lane == 31) tile_total = wincl;
        }
        __syncthreads();

        float lane_excl = __shfl_up_sync(FULL_MASK, incl, 1);
        if (lane == 0) lane_excl = 0.0f;
        const float e0 = carry + (warp_excl[w] + lane_excl);
        const float e1 = e0 + v0;
        const float e2 = e0 + p1;
        const float e3 = e0 + p2;
        if (VEC) {
            if (j < N) *reinterpret_cast<float4*>(orow + j) = make_float4(e0, e1, e2, e3);
        } else {
            if (j     < N) orow[j]     = e0;
            if (j + 1 < N) orow[j + 1] = e1;
            if (j + 2 < N) orow[j + 2] = e2;
            if (j + 3 < N) orow[j + 3] = e3;
        }
        carry += tile_total;
        __syncthreads();
    }
}

torch::Tensor exclusive_cumsum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D (B, N)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int B = (int)xc.size(0);
    const int N = (int)xc.size(1);
    if (B == 0 || N == 0) return out;
    const float* xp = xc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const bool vec = (N % 4 == 0) &&
                     (reinterpret_cast<uintptr_t>(xp) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(op) % 16 == 0);
    if (vec) exclusive_cumsum_float4_kernel<true><<<B, V4_THREADS>>>(xp, op, N);
    else     exclusive_cumsum_float4_kernel<false><<<B, V4_THREADS>>>(xp, op, N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_source = "torch::Tensor exclusive_cumsum_cuda(torch::Tensor x);"

_ext = load_inline(
    name="exclusive_cumsum_float4_block_scan",
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
        return _ext.exclusive_cumsum_cuda(x)
