# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gs_min_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <math.h>

#define THREADS 512
#define WARPS (THREADS / 32)

// Persistent-style kernel: a fixed grid sized from the SM count; every warp grid-strides over rows.
// Inside a row each lane keeps two independent float4 accumulators (2 loads in flight per iteration).
__global__ void __launch_bounds__(THREADS)
min_lastdim_grid_stride_kernel(const float* __restrict__ x, float* __restrict__ out,
                               int64_t rows, int64_t len) {
    const int lane = threadIdx.x & 31;
    const int64_t warp_global = (int64_t)blockIdx.x * WARPS + (threadIdx.x >> 5);
    const int64_t warp_stride = (int64_t)gridDim.x * WARPS;
    const int64_t n4 = len >> 2;  // full float4 groups
    const int64_t tail = n4 << 2;

    for (int64_t row = warp_global; row < rows; row += warp_stride) {
        const float* xr = x + row * len;
        const float4* xr4 = reinterpret_cast<const float4*>(xr);
        float m0 = INFINITY, m1 = INFINITY;
        int64_t i = lane;
        for (; i + 32 < n4; i += 64) {
            float4 a = __ldg(xr4 + i);
            float4 b = __ldg(xr4 + i + 32);
            m0 = fminf(m0, fminf(fminf(a.x, a.y), fminf(a.z, a.w)));
            m1 = fminf(m1, fminf(fminf(b.x, b.y), fminf(b.z, b.w)));
        }
        if (i < n4) {
            float4 a = __ldg(xr4 + i);
            m0 = fminf(m0, fminf(fminf(a.x, a.y), fminf(a.z, a.w)));
        }
        for (int64_t j = tail + lane; j < len; j += 32) m1 = fminf(m1, __ldg(xr + j));
        float m = fminf(m0, m1);
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) m = fminf(m, __shfl_xor_sync(0xffffffff, m, o));
        if (lane == 0) out[row] = m;
    }
}

// Scalar fallback for rows that are not 16-byte aligned.
__global__ void min_lastdim_scalar_kernel(const float* __restrict__ x, float* __restrict__ out,
                                          int64_t rows, int64_t len) {
    const int lane = threadIdx.x & 31;
    const int64_t warp_global = (int64_t)blockIdx.x * WARPS + (threadIdx.x >> 5);
    const int64_t warp_stride = (int64_t)gridDim.x * WARPS;
    for (int64_t row = warp_global; row < rows; row += warp_stride) {
        const float* xr = x + row * len;
        float m = INFINITY;
        for (int64_t j = lane; j < len; j += 32) m = fminf(m, __ldg(xr + j));
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) m = fminf(m, __shfl_xor_sync(0xffffffff, m, o));
        if (lane == 0) out[row] = m;
    }
}

torch::Tensor min_lastdim_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2D (rows, len)");
    TORCH_CHECK(x.size(1) > 0, "cannot reduce over an empty dimension");
    x = x.contiguous();
    const int64_t rows = x.size(0);
    const int64_t len = x.size(1);
    auto out = torch::empty({rows}, x.options());
    if (rows == 0) return out;

    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    int64_t want = (rows + WARPS - 1) / WARPS;
    int64_t cap = (int64_t)sms * 4;
    const unsigned int blocks = (unsigned int)(want < cap ? want : cap);
    const bool aligned = (len % 4 == 0) && (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0);
    auto stream = at::cuda::getCurrentCUDAStream();
    if (aligned) {
        min_lastdim_grid_stride_kernel<<<blocks, THREADS, 0, stream>>>(
            x.data_ptr<float>(), out.data_ptr<float>(), rows, len);
    } else {
        min_lastdim_scalar_kernel<<<blocks, THREADS, 0, stream>>>(
            x.data_ptr<float>(), out.data_ptr<float>(), rows, len);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

gs_min_cpp = "torch::Tensor min_lastdim_cuda(torch::Tensor x);"

gs_min = load_inline(
    name="min_lastdim_grid_stride_unrolled",
    cpp_sources=gs_min_cpp,
    cuda_sources=gs_min_source,
    functions=["min_lastdim_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        xt = x.movedim(d, -1).contiguous()
        out_shape = xt.shape[:-1]
        out = gs_min.min_lastdim_cuda(xt.view(-1, xt.shape[-1]))
        return out.view(out_shape)
