# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor bce_logits_mean_cuda(torch::Tensor logits, torch::Tensor targets);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Follows the tensor's row structure: one block per row of the (rows, last_dim) view.
// Threads stride across the row with coalesced scalar loads, the block reduces with warp
// shuffles plus a small shared array of warp sums, and writes one row sum. A second
// single-block kernel sums the row sums and divides by N.

#define ROW_THREADS 256
#define FINAL_THREADS 1024

__device__ __forceinline__ float bce_elem(float x, float t) {
    return fmaxf(x, 0.0f) - x * t + log1pf(expf(-fabsf(x)));
}

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// Block-wide sum; result valid in every thread. blockDim.x must be a multiple of 32.
__device__ float block_sum(float v) {
    __shared__ float warp_sums[32];
    int lane = threadIdx.x & 31;
    int wid = threadIdx.x >> 5;
    int nwarps = blockDim.x >> 5;
    v = warp_sum(v);
    if (lane == 0) warp_sums[wid] = v;
    __syncthreads();
    float r = (lane < nwarps) ? warp_sums[lane] : 0.0f;
    r = warp_sum(r);
    __syncthreads();  // allow warp_sums reuse by a later call
    return r;
}

__global__ void bce_row_kernel(const float* __restrict__ x,
                               const float* __restrict__ t,
                               float* __restrict__ row_sums,
                               long long rows,
                               long long row_len) {
    float sum = 0.0f;
    // Normally one row per block; if there are more rows than blocks a block takes several.
    for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
        const float* xr = x + r * row_len;
        const float* tr = t + r * row_len;
        for (long long j = threadIdx.x; j < row_len; j += ROW_THREADS) {
            sum += bce_elem(xr[j], tr[j]);
        }
    }
    sum = block_sum(sum);
    if (threadIdx.x == 0) row_sums[blockIdx.x] = sum;
}

__global__ void bce_rows_final_kernel(const float* __restrict__ row_sums, long long count,
                                      float* __restrict__ out, double n) {
    float sum = 0.0f;
    for (long long i = threadIdx.x; i < count; i += FINAL_THREADS) sum += row_sums[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0) out[0] = (float)((double)sum / n);
}

torch::Tensor bce_logits_mean_cuda(torch::Tensor logits, torch::Tensor targets) {
    TORCH_CHECK(logits.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(logits.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32,
                "inputs must be float32");
    TORCH_CHECK(logits.numel() == targets.numel(), "logits and targets must have the same size");
    auto xc = logits.contiguous();
    auto tc = targets.contiguous();
    long long n = xc.numel();
    auto out = torch::empty({}, xc.options());

    long long row_len = (xc.dim() > 0) ? xc.size(xc.dim() - 1) : 1;
    long long rows = (row_len > 0) ? n / row_len : 0;
    long long grid = rows;
    if (grid > (1LL << 20)) grid = (1LL << 20);
    auto row_sums = torch::empty({grid > 0 ? grid : 1}, xc.options());
    if (grid > 0) {
        bce_row_kernel<<<(unsigned int)grid, ROW_THREADS>>>(
            xc.data_ptr<float>(), tc.data_ptr<float>(), row_sums.data_ptr<float>(), rows, row_len);
    }
    bce_rows_final_kernel<<<1, FINAL_THREADS>>>(row_sums.data_ptr<float>(), grid,
                                                out.data_ptr<float>(), (double)n);
    return out;
}
"""

bce_mod = load_inline(
    name="s46_bce_row_per_block",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["bce_logits_mean_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return bce_mod.bce_logits_mean_cuda(logits, targets)
