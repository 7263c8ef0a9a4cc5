# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

l1_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define THREADS 256
#define NWARPS (THREADS / 32)
#define VPT 8                          // float4s held in registers per thread
#define MAX_COLS4 (THREADS * VPT)      // 2048 float4 = 8192 floats per row

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// One block per row; the whole row lives in registers (8 float4 per thread), so x is read
// from HBM exactly once with streaming loads and y written once with streaming stores.
// All 8 loads per thread are issued before any use, giving plenty of bytes in flight.
__global__ void __launch_bounds__(THREADS)
l1_norm_regcache_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
    __shared__ float warp_part[NWARPS];
    __shared__ float s_inv_mean;
    const long long base = (long long)blockIdx.x * cols;
    const float4* xr = reinterpret_cast<const float4*>(x + base);
    float4* yr = reinterpret_cast<float4*>(y + base);
    const int cols4 = cols >> 2;

    float4 v[VPT];
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        const int j = k * THREADS + threadIdx.x;
        v[k] = j < cols4 ? __ldcs(xr + j) : make_float4(0.f, 0.f, 0.f, 0.f);
    }
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < VPT; ++k) s += (fabsf(v[k].x) + fabsf(v[k].y)) + (fabsf(v[k].z) + fabsf(v[k].w));

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

#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        const int j = k * THREADS + threadIdx.x;
        if (j < cols4) {
            float4 o = v[k];
            o.x *= inv_mean; o.y *= inv_mean; o.z *= inv_mean; o.w *= inv_mean;
            __stcs(yr + j, o);
        }
    }
}

torch::Tensor l1_norm_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const long long rows = x.size(0), cols = x.size(1);
    if (rows == 0 || cols == 0) return y;
    TORCH_CHECK(cols % 4 == 0, "cols must be a multiple of 4");
    TORCH_CHECK(cols / 4 <= MAX_COLS4, "row too long for the register-cached kernel");
    TORCH_CHECK(rows < (1LL << 31), "too many rows");
    TORCH_CHECK(reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0, "x must be 16-byte aligned");
    l1_norm_regcache_kernel<<<(unsigned)rows, THREADS>>>(x.data_ptr<float>(), y.data_ptr<float>(), (int)cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "l1_norm kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

l1_norm_cpp_source = "torch::Tensor l1_norm_cuda(torch::Tensor x);"

l1_norm = load_inline(
    name="l1_norm_register_cached_single_pass",
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
