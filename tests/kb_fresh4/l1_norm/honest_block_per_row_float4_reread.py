# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

l1_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define THREADS 512
#define NWARPS (THREADS / 32)

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// One block per row, float4 loads, warp-shuffle + shared-memory two-level reduction;
// the row (32 KB) is then re-read (mostly from L2) and scaled by 1/mean.
// A scalar tail handles cols not divisible by 4.
__global__ void __launch_bounds__(THREADS)
l1_norm_block_vec_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
    __shared__ float warp_part[NWARPS];
    __shared__ float s_inv_mean;
    const long long base = (long long)blockIdx.x * cols;
    const float* xr = x + base;
    float* yr = y + base;
    const int cols4 = cols >> 2;
    const float4* xr4 = reinterpret_cast<const float4*>(xr);
    float4* yr4 = reinterpret_cast<float4*>(yr);

    float s = 0.f;
    for (int j = threadIdx.x; j < cols4; j += THREADS) {
        const float4 v = __ldg(xr4 + j);
        s += (fabsf(v.x) + fabsf(v.y)) + (fabsf(v.z) + fabsf(v.w));
    }
    for (int j = (cols4 << 2) + threadIdx.x; j < cols; j += THREADS) s += fabsf(__ldg(xr + j));

    s = warp_sum(s);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_part[warp] = s;
    __syncthreads();
    if (warp == 0) {
        float t = lane < NWARPS ? warp_part[lane] : 0.f;
        t = warp_sum(t);
        if (lane == 0) s_inv_mean = (float)cols / t;
    }
    __syncthreads();
    const float inv_mean = s_inv_mean;

    for (int j = threadIdx.x; j < cols4; j += THREADS) {
        float4 v = __ldg(xr4 + j);
        v.x *= inv_mean; v.y *= inv_mean; v.z *= inv_mean; v.w *= inv_mean;
        yr4[j] = v;
    }
    for (int j = (cols4 << 2) + threadIdx.x; j < cols; j += THREADS) yr[j] = __ldg(xr + j) * inv_mean;
}

torch::Tensor l1_norm_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const long long rows = x.size(0), cols = x.size(1);
    if (rows == 0 || cols == 0) return y;
    // float4 row access needs every row start 16-byte aligned
    TORCH_CHECK(cols % 4 == 0, "cols must be a multiple of 4");
    TORCH_CHECK(cols < (1LL << 31) && rows < (1LL << 31), "tensor too large");
    TORCH_CHECK(reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0, "x must be 16-byte aligned");
    l1_norm_block_vec_kernel<<<(unsigned)rows, THREADS>>>(x.data_ptr<float>(), y.data_ptr<float>(), (int)cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "l1_norm kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

l1_norm_cpp_source = "torch::Tensor l1_norm_cuda(torch::Tensor x);"

l1_norm = load_inline(
    name="l1_norm_block_per_row_float4_reread",
    cpp_sources=l1_norm_cpp_source,
    cuda_sources=l1_norm_source,
    functions=["l1_norm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l1_norm.l1_norm_cuda(x.contiguous())
