# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cumprod_segments(torch::Tensor x, int64_t dim);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define SEG_THREADS 256
#define SEG_ITEMS 16
#define SEG_TILE (SEG_THREADS * SEG_ITEMS)        // 4096 elements per tile
#define SEG_PAD(i) ((i) + (i) / SEG_ITEMS)        // one pad word per 16 -> conflict-free segment reads
#define FULL_MASK 0xffffffffu

// One block per row. Each tile of 4096 elements is staged through shared memory
// with coalesced loads; each thread then owns 16 contiguous elements, scans them
// serially in registers, and the per-thread totals are combined with a warp
// shuffle scan plus a tiny cross-warp scan. The result goes back through shared
// memory so the global stores are coalesced as well.
__global__ void __launch_bounds__(SEG_THREADS)
cumprod_segments_kernel(const float* __restrict__ x, float* __restrict__ y, long long L) {
    __shared__ float tile[SEG_PAD(SEG_TILE)];
    __shared__ float warp_tot[SEG_THREADS / 32];
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int wid = tid >> 5;
    const float* xr = x + (long long)blockIdx.x * L;
    float* yr = y + (long long)blockIdx.x * L;

    float carry = 1.0f;
    for (long long base = 0; base < L; base += SEG_TILE) {
        // coalesced load into shared memory (pad with the multiplicative identity)
#pragma unroll
        for (int k = 0; k < SEG_ITEMS; ++k) {
            int i = k * SEG_THREADS + tid;
            long long g = base + i;
            tile[SEG_PAD(i)] = (g < L) ? __ldg(xr + g) : 1.0f;
        }
        __syncthreads();

        // serial inclusive scan of this thread's contiguous segment
        float p[SEG_ITEMS];
        float acc = 1.0f;
#pragma unroll
        for (int k = 0; k < SEG_ITEMS; ++k) {
            int i = tid * SEG_ITEMS + k;
            acc *= tile[SEG_PAD(i)];
            p[k] = acc;
        }

        // warp-level inclusive scan of the segment totals
        float inc = acc;
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            float n = __shfl_up_sync(FULL_MASK, inc, off);
            if (lane >= off) inc *= n;
        }
        float excl = __shfl_up_sync(FULL_MASK, inc, 1);
        if (lane == 0) excl = 1.0f;
        if (lane == 31) warp_tot[wid] = inc;
        __syncthreads();

        float warp_pre = 1.0f, block_tot = 1.0f;
#pragma unroll
        for (int w = 0; w < SEG_THREADS / 32; ++w) {
            float t = warp_tot[w];
            if (w < wid) warp_pre *= t;
            block_tot *= t;
        }
        float pre = carry * warp_pre * excl;

#pragma unroll
        for (int k = 0; k < SEG_ITEMS; ++k) {
            int i = tid * SEG_ITEMS + k;
            tile[SEG_PAD(i)] = pre * p[k];
        }
        __syncthreads();

#pragma unroll
        for (int k = 0; k < SEG_ITEMS; ++k) {
            int i = k * SEG_THREADS + tid;
            long long g = base + i;
            if (g < L) yr[g] = tile[SEG_PAD(i)];
        }
        carry *= block_tot;
        __syncthreads();   // tile and warp_tot are reused by the next iteration
    }
}

torch::Tensor cumprod_segments(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    int64_t nd = x.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim == nd - 1, "this kernel scans the last dimension only");
    long long L = x.size(nd - 1);
    auto y = torch::empty_like(x);
    if (x.numel() == 0) return y;
    long long rows = x.numel() / L;
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");
    cumprod_segments_kernel<<<(unsigned int)rows, SEG_THREADS>>>(x.data_ptr<float>(), y.data_ptr<float>(), L);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "cumprod_segments_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

_mod = load_inline(
    name="cumprod_dim_block_thread_segments",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cumprod_segments"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.cumprod_segments(x.contiguous(), self.dim)
