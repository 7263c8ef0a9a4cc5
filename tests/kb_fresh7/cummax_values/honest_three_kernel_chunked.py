# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cummax_three_pass(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

#define CH 256            // chunk length == threads per block
#define NWARPS (CH / 32)

// Reduce-then-scan decomposition for more parallelism than one block per row:
//   pass 1: max of every (row, chunk)            -> cmax[B, nchunks]
//   pass 2: exclusive running max over chunks    -> cpre[B, nchunks]
//   pass 3: block scan inside each chunk, combined with its chunk prefix.
__global__ void chunk_max_kernel(const float* __restrict__ x, float* __restrict__ cmax, int L, int nchunks) {
    __shared__ float s_warp[NWARPS];
    const long long blk = blockIdx.x;
    const long long row = blk / nchunks;
    const int c = (int)(blk % nchunks);
    const int i = c * CH + threadIdx.x;
    float v = (i < L) ? __ldg(x + row * L + i) : -INFINITY;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
    if ((threadIdx.x & 31) == 0) s_warp[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        float w = (threadIdx.x < NWARPS) ? s_warp[threadIdx.x] : -INFINITY;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) w = fmaxf(w, __shfl_xor_sync(0xffffffffu, w, off));
        if (threadIdx.x == 0) cmax[blk] = w;
    }
}

__global__ void chunk_prefix_kernel(const float* __restrict__ cmax, float* __restrict__ cpre, int B, int nchunks) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= B) return;
    const float* src = cmax + (long long)row * nchunks;
    float* dst = cpre + (long long)row * nchunks;
    float run = -INFINITY;
    for (int c = 0; c < nchunks; ++c) {
        dst[c] = run;                    // exclusive
        run = fmaxf(run, src[c]);
    }
}

__global__ void chunk_scan_kernel(const float* __restrict__ x, const float* __restrict__ cpre,
                                  float* __restrict__ y, int L, int nchunks) {
    __shared__ float s_warp[NWARPS];
    const long long blk = blockIdx.x;
    const long long row = blk / nchunks;
    const int c = (int)(blk % nchunks);
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const int i = c * CH + threadIdx.x;
    float v = (i < L) ? __ldg(x + row * L + i) : -INFINITY;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        float t = __shfl_up_sync(0xffffffffu, v, off);
        if (lane >= off) v = fmaxf(v, t);
    }
    if (lane == 31) s_warp[wid] = v;
    __syncthreads();
    float p = __ldg(cpre + blk);
    for (int w = 0; w < wid; ++w) p = fmaxf(p, s_warp[w]);
    if (i < L) y[row * L + i] = fmaxf(v, p);
}

torch::Tensor cummax_three_pass(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 2, "x must be a 2-D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    int B = x.size(0), L = x.size(1);
    auto y = torch::empty_like(x);
    if (B == 0 || L == 0) return y;
    int nchunks = (L + CH - 1) / CH;
    long long nblk = (long long)B * nchunks;
    TORCH_CHECK(nblk <= 2147483647LL, "too many chunks");
    auto cmax = torch::empty({B, nchunks}, x.options());
    auto cpre = torch::empty({B, nchunks}, x.options());
    chunk_max_kernel<<<(unsigned)nblk, CH>>>(x.data_ptr<float>(), cmax.data_ptr<float>(), L, nchunks);
    chunk_prefix_kernel<<<(B + 255) / 256, 256>>>(cmax.data_ptr<float>(), cpre.data_ptr<float>(), B, nchunks);
    chunk_scan_kernel<<<(unsigned)nblk, CH>>>(x.data_ptr<float>(), cpre.data_ptr<float>(), y.data_ptr<float>(), L, nchunks);
    return y;
}
"""

cummax_three_mod = load_inline(
    name="cummax_values_three_kernel_chunked",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cummax_three_pass"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return cummax_three_mod.cummax_three_pass(x)
