# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cumprod_three_pass(torch::Tensor x, int64_t dim);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define CH_THREADS 256
#define CH_ITEMS 4
#define CH_SIZE (CH_THREADS * CH_ITEMS)          // 1024 elements per chunk
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_prod(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v *= __shfl_xor_sync(FULL_MASK, v, off);
    return v;
}

// Pass 1: grid (rows, chunks). Each block reduces one chunk of a row to its product.
__global__ void chunk_product_kernel(const float* __restrict__ x, float* __restrict__ part,
                                     long long L, int nchunks) {
    __shared__ float wsum[CH_THREADS / 32];
    const int tid = threadIdx.x, lane = tid & 31, wid = tid >> 5;
    const long long row = blockIdx.x;
    const long long base = (long long)blockIdx.y * CH_SIZE;
    const float* xr = x + row * L;
    float acc = 1.0f;
#pragma unroll
    for (int k = 0; k < CH_ITEMS; ++k) {
        long long g = base + k * CH_THREADS + tid;
        if (g < L) acc *= __ldg(xr + g);
    }
    acc = warp_prod(acc);
    if (lane == 0) wsum[wid] = acc;
    __syncthreads();
    if (wid == 0) {
        float v = (lane < CH_THREADS / 32) ? wsum[lane] : 1.0f;
        v = warp_prod(v);
        if (lane == 0) part[row * nchunks + blockIdx.y] = v;
    }
}

// Pass 2: one thread per row turns the chunk products into exclusive prefixes (in place).
__global__ void chunk_prefix_kernel(float* __restrict__ part, long long rows, int nchunks) {
    long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    float* p = part + row * nchunks;
    float run = 1.0f;
    for (int c = 0; c < nchunks; ++c) {
        float t = p[c];
        p[c] = run;
        run *= t;
    }
}

// Pass 3: grid (rows, chunks). Each block scans its chunk (each thread owns CH_ITEMS
// contiguous elements, warp shuffle scan of their totals, cross-warp scan in shared
// memory) and multiplies by the chunk's exclusive prefix from pass 2.
__global__ void chunk_scan_kernel(const float* __restrict__ x, const float* __restrict__ part,
                                  float* __restrict__ y, long long L, int nchunks) {
    __shared__ float wtot[CH_THREADS / 32];
    const int tid = threadIdx.x, lane = tid & 31, wid = tid >> 5;
    const long long row = blockIdx.x;
    const long long base = (long long)blockIdx.y * CH_SIZE + (long long)tid * CH_ITEMS;
    const float* xr = x + row * L;
    float* yr = y + row * L;

    float p[CH_ITEMS];
    float acc = 1.0f;
#pragma unroll
    for (int k = 0; k < CH_ITEMS; ++k) {
        long long g = base + k;
        acc *= (g < L) ? __ldg(xr + g) : 1.0f;
        p[k] = acc;
    }
    float inc = acc;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        float n = __shfl_up_sync(FULL_MASK, inc, off);
        if (lane >= off) inc *= n;
    }
    float excl = __shfl_up_sync(FULL_MASK, inc, 1);
    if (lane == 0) excl = 1.0f;
    if (lane == 31) wtot[wid] = inc;
    __syncthreads();
    float wpre = 1.0f;
    for (int w = 0; w < wid; ++w) wpre *= wtot[w];
    float pre = part[row * nchunks + blockIdx.y] * wpre * excl;
#pragma unroll
    for (int k = 0; k < CH_ITEMS; ++k) {
        long long g = base + k;
        if (g < L) yr[g] = pre * p[k];
    }
}

torch::Tensor cumprod_three_pass(torch::Tensor x, int64_t dim) {
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
    long long nch = (L + CH_SIZE - 1) / CH_SIZE;
    TORCH_CHECK(nch <= 65535, "row too long for grid.y");
    int nchunks = (int)nch;
    auto part = torch::empty({rows, (long long)nchunks}, x.options());

    dim3 grid((unsigned int)rows, (unsigned int)nchunks);
    chunk_product_kernel<<<grid, CH_THREADS>>>(x.data_ptr<float>(), part.data_ptr<float>(), L, nchunks);
    const int pt = 256;
    chunk_prefix_kernel<<<(unsigned int)((rows + pt - 1) / pt), pt>>>(part.data_ptr<float>(), rows, nchunks);
    chunk_scan_kernel<<<grid, CH_THREADS>>>(x.data_ptr<float>(), part.data_ptr<float>(), y.data_ptr<float>(),
                                            L, nchunks);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "cumprod three-pass launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

_mod = load_inline(
    name="cumprod_dim_three_pass_chunks",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cumprod_three_pass"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.cumprod_three_pass(x.contiguous(), self.dim)
