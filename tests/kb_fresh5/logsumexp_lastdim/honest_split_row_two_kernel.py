# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor logsumexp_split_rows(torch::Tensor x, int64_t stream_ptr);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <cmath>

#define THREADS 256
#define PER_THREAD 4
#define CHUNK (THREADS * PER_THREAD)   // 1024 columns per partial block
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
    return v;
}

// Merge (m2, s2) into (m, s), where a pair stands for s * exp(m). Empty parts are (-inf, 0).
__device__ __forceinline__ void lse_merge(float& m, float& s, float m2, float s2) {
    const float M = fmaxf(m, m2);
    if (M == -INFINITY) return;
    s = s * __expf(m - M) + s2 * __expf(m2 - M);
    m = M;
}

// Stage 1: every (row, chunk) pair gets its own block. The block keeps its 1024 values in registers
// (4 per thread), reduces the chunk max with warp shuffles + shared memory, then the chunk's
// sum of exp(x - chunk_max). Result: one partial (max, sum) per block.
__global__ void logsumexp_partial_kernel(const float* __restrict__ x, float* __restrict__ part_m,
                                         float* __restrict__ part_s, int cols, int nchunks) {
    __shared__ float red[THREADS / 32];
    __shared__ float bcast;
    const int row = blockIdx.x / nchunks;
    const int chunk = blockIdx.x - row * nchunks;
    const float* xr = x + (long long)row * cols;
    const int base = chunk * CHUNK;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

    float v[PER_THREAD];
    float m = -INFINITY;
#pragma unroll
    for (int i = 0; i < PER_THREAD; ++i) {
        const int c = base + threadIdx.x + i * THREADS;
        v[i] = (c < cols) ? __ldg(xr + c) : -INFINITY;
        m = fmaxf(m, v[i]);
    }
    m = warp_max(m);
    if (lane == 0) red[warp] = m;
    __syncthreads();
    if (warp == 0) {
        float t = (lane < THREADS / 32) ? red[lane] : -INFINITY;
        t = warp_max(t);
        if (lane == 0) bcast = t;
    }
    __syncthreads();
    const float cmax = bcast;
    const float shift = (cmax == -INFINITY) ? 0.0f : cmax;

    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < PER_THREAD; ++i) s += __expf(v[i] - shift);   // -inf padding adds 0
    s = warp_sum(s);
    __syncthreads();   // red[] is reused
    if (lane == 0) red[warp] = s;
    __syncthreads();
    if (warp == 0) {
        float t = (lane < THREADS / 32) ? red[lane] : 0.0f;
        t = warp_sum(t);
        if (lane == 0) {
            part_m[blockIdx.x] = cmax;
            part_s[blockIdx.x] = t;
        }
    }
}

// Stage 2: one warp per row merges that row's partials with the (max, sum) rescaling rule.
__global__ void logsumexp_combine_kernel(const float* __restrict__ part_m, const float* __restrict__ part_s,
                                         float* __restrict__ y, int rows, int nchunks) {
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5);
    if (row >= rows) return;   // whole warp leaves together
    float m = -INFINITY, s = 0.0f;
    for (int i = lane; i < nchunks; i += 32) {
        lse_merge(m, s, part_m[(long long)row * nchunks + i], part_s[(long long)row * nchunks + i]);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(FULL_MASK, m, o);
        const float s2 = __shfl_xor_sync(FULL_MASK, s, o);
        lse_merge(m, s, m2, s2);
    }
    if (lane == 0) y[row] = (m == -INFINITY) ? -INFINITY : m + logf(s);
}

torch::Tensor logsumexp_split_rows(torch::Tensor x, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto xc = x.contiguous();
    const long long cols = xc.size(-1);
    TORCH_CHECK(cols > 0 && cols < 2147483647LL, "bad last dimension");
    const long long rows = xc.numel() / cols;
    auto out_sizes = xc.sizes().vec();
    out_sizes.pop_back();
    auto y = torch::empty(out_sizes, xc.options());
    if (rows == 0) return y;
    const long long nchunks = (cols + CHUNK - 1) / CHUNK;
    TORCH_CHECK(rows * nchunks < 2147483647LL, "too many partial blocks");
    auto part = torch::empty({2, rows * nchunks}, xc.options());
    float* pm = part.data_ptr<float>();
    float* ps = pm + rows * nchunks;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    logsumexp_partial_kernel<<<(unsigned)(rows * nchunks), THREADS, 0, stream>>>(
        xc.data_ptr<float>(), pm, ps, (int)cols, (int)nchunks);
    const int warps_per_block = 8;
    logsumexp_combine_kernel<<<(unsigned)((rows + warps_per_block - 1) / warps_per_block), warps_per_block * 32, 0,
                               stream>>>(pm, ps, y.data_ptr<float>(), (int)rows, (int)nchunks);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

logsumexp_split_rows_mod = load_inline(
    name="logsumexp_lastdim_split_row_two_kernel_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["logsumexp_split_rows"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return logsumexp_split_rows_mod.logsumexp_split_rows(x, stream)
