# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor var_split(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define SP_THREADS 256
#define SP_ITEMS 4
#define SP_CHUNK (SP_THREADS * SP_ITEMS)     // 1024 columns per partial
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL_MASK, v, off);
    return v;
}

__device__ float block_sum(float v, float* sh) {
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) sh[wid] = v;
    __syncthreads();
    v = (lane < SP_THREADS / 32) ? sh[lane] : 0.0f;
    v = warp_sum(v);
    __syncthreads();   // allow reuse of sh
    return v;
}

// Kernel 1: grid (rows, chunks). Each block loads its chunk into registers
// (coalesced), computes the chunk mean, then the chunk's sum of squared
// deviations from that mean (exact two-pass, no second global read).
__global__ void __launch_bounds__(SP_THREADS)
var_partial_kernel(const float* __restrict__ x, float* __restrict__ pmean, float* __restrict__ pm2,
                   long long cols, int nchunks) {
    __shared__ float sh[SP_THREADS / 32];
    const long long row = blockIdx.x;
    const long long start = (long long)blockIdx.y * SP_CHUNK;
    const float* xr = x + row * cols;
    long long rem = cols - start;
    const float cnt = (float)(rem < SP_CHUNK ? rem : SP_CHUNK);

    float v[SP_ITEMS];
    bool ok[SP_ITEMS];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < SP_ITEMS; ++k) {
        long long c = start + k * SP_THREADS + threadIdx.x;
        ok[k] = c < cols;
        v[k] = ok[k] ? __ldg(xr + c) : 0.0f;
        s += v[k];
    }
    const float mean = block_sum(s, sh) / cnt;
    float q = 0.0f;
#pragma unroll
    for (int k = 0; k < SP_ITEMS; ++k) {
        float d = ok[k] ? v[k] - mean : 0.0f;
        q += d * d;
    }
    q = block_sum(q, sh);
    if (threadIdx.x == 0) {
        pmean[row * nchunks + blockIdx.y] = mean;
        pm2[row * nchunks + blockIdx.y] = q;
    }
}

__device__ __forceinline__ void welford_merge(float& n, float& mean, float& m2,
                                              float nb, float meanb, float m2b) {
    if (nb == 0.0f) return;
    if (n == 0.0f) { n = nb; mean = meanb; m2 = m2b; return; }
    float nt = n + nb;
    float delta = meanb - mean;
    float f = nb / nt;
    mean += delta * f;
    m2 += m2b + delta * delta * n * f;
    n = nt;
}

// Kernel 2: one warp per row merges the per-chunk (count, mean, M2) triples
// with Chan's parallel formula and writes the unbiased variance.
__global__ void var_merge_kernel(const float* __restrict__ pmean, const float* __restrict__ pm2,
                                 float* __restrict__ out, long long rows, long long cols, int nchunks) {
    const int lane = threadIdx.x & 31;
    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= rows) return;   // whole warp exits together
    float n = 0.0f, mean = 0.0f, m2 = 0.0f;
    for (int k = lane; k < nchunks; k += 32) {
        long long rem = cols - (long long)k * SP_CHUNK;
        float cnt = (float)(rem < SP_CHUNK ? rem : SP_CHUNK);
        welford_merge(n, mean, m2, cnt, pmean[row * nchunks + k], pm2[row * nchunks + k]);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        float nb = __shfl_xor_sync(FULL_MASK, n, off);
        float mb = __shfl_xor_sync(FULL_MASK, mean, off);
        float qb = __shfl_xor_sync(FULL_MASK, m2, off);
        welford_merge(n, mean, m2, nb, mb, qb);
    }
    if (lane == 0) out[row] = m2 / (float)(cols - 1);
}

torch::Tensor var_split(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto sizes = x.sizes().vec();
    long long cols = sizes.back();
    sizes.back() = 1;
    auto out = torch::empty(sizes, x.options());
    if (out.numel() == 0) return out;
    long long rows = out.numel();
    if (cols == 0) { out.fill_(NAN); return out; }
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");
    long long nch = (cols + SP_CHUNK - 1) / SP_CHUNK;
    TORCH_CHECK(nch <= 65535, "row too long for grid.y");
    int nchunks = (int)nch;
    auto pmean = torch::empty({rows, (long long)nchunks}, x.options());
    auto pm2 = torch::empty({rows, (long long)nchunks}, x.options());

    dim3 grid1((unsigned int)rows, (unsigned int)nchunks);
    var_partial_kernel<<<grid1, SP_THREADS>>>(x.data_ptr<float>(), pmean.data_ptr<float>(),
                                              pm2.data_ptr<float>(), cols, nchunks);
    const int threads2 = 256;
    long long blocks2 = (rows * 32 + threads2 - 1) / threads2;
    var_merge_kernel<<<(unsigned int)blocks2, threads2>>>(pmean.data_ptr<float>(), pm2.data_ptr<float>(),
                                                          out.data_ptr<float>(), rows, cols, nchunks);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "var split launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_mod = load_inline(
    name="var_lastdim_split_rows_two_kernel",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["var_split"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.var_split(x.contiguous())
