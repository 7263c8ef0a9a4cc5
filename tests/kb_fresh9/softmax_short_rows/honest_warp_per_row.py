# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor softmax_warp_row_forward(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>

#define WARPS_PER_BLOCK 8

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// One warp per row; the row is held in registers, PER_LANE elements per lane at columns
// lane, lane+32, ... (coalesced). For the 64-wide rows PER_LANE = 2. Max and sum are butterfly
// reductions with __shfl_xor_sync, so every lane ends with the full-row values.
template <int PER_LANE>
__global__ void softmax_warp_row_kernel(const float* __restrict__ x, float* __restrict__ y,
                                        long long rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const long long row = (long long)blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
    if (row >= rows) return;   // whole warp exits together
    const float* xr = x + row * cols;
    float* yr = y + row * cols;

    float v[PER_LANE];
    float m = -FLT_MAX;
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
        const int j = lane + 32 * i;
        v[i] = (j < cols) ? __ldg(xr + j) : -FLT_MAX;
        m = fmaxf(m, v[i]);
    }
    m = warp_max(m);

    float s = 0.f;
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
        const int j = lane + 32 * i;
        v[i] = (j < cols) ? __expf(v[i] - m) : 0.f;
        s += v[i];
    }
    s = warp_sum(s);
    const float inv = 1.0f / s;

#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
        const int j = lane + 32 * i;
        if (j < cols) yr[j] = v[i] * inv;
    }
}

// Rows longer than 1024: warp per row, three passes over global memory.
__global__ void softmax_warp_row_long_kernel(const float* __restrict__ x, float* __restrict__ y,
                                             long long rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const long long row = (long long)blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
    if (row >= rows) return;
    const float* xr = x + row * cols;
    float* yr = y + row * cols;
    float m = -FLT_MAX;
    for (int j = lane; j < cols; j += 32) m = fmaxf(m, xr[j]);
    m = warp_max(m);
    float s = 0.f;
    for (int j = lane; j < cols; j += 32) s += __expf(xr[j] - m);
    s = warp_sum(s);
    const float inv = 1.0f / s;
    for (int j = lane; j < cols; j += 32) yr[j] = __expf(xr[j] - m) * inv;
}

torch::Tensor softmax_warp_row_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int cols = (int)xc.size(-1);
    if (xc.numel() == 0 || cols == 0) return y;
    const long long rows = xc.numel() / cols;
    const long long blocks = (rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    const int threads = WARPS_PER_BLOCK * 32;
    const float* xp = xc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const unsigned g = (unsigned)blocks;
    if (cols <= 32)        softmax_warp_row_kernel<1><<<g, threads>>>(xp, yp, rows, cols);
    else if (cols <= 64)   softmax_warp_row_kernel<2><<<g, threads>>>(xp, yp, rows, cols);
    else if (cols <= 128)  softmax_warp_row_kernel<4><<<g, threads>>>(xp, yp, rows, cols);
    else if (cols <= 256)  softmax_warp_row_kernel<8><<<g, threads>>>(xp, yp, rows, cols);
    else if (cols <= 512)  softmax_warp_row_kernel<16><<<g, threads>>>(xp, yp, rows, cols);
    else if (cols <= 1024) softmax_warp_row_kernel<32><<<g, threads>>>(xp, yp, rows, cols);
    else                   softmax_warp_row_long_kernel<<<g, threads>>>(xp, yp, rows, cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "softmax warp-per-row launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

softmax_warp_row_ext = load_inline(
    name="softmax_short_rows_warp_per_row_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["softmax_warp_row_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax_warp_row_ext.softmax_warp_row_forward(x)
