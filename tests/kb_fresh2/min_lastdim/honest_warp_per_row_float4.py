# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

warp_min_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <math.h>

#define WARPS_PER_BLOCK 4

__device__ __forceinline__ float warp_min(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fminf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}

// One warp per row, 4 rows per block. Rows whose length is a multiple of 4 (and 16-byte aligned)
// are read with float4 loads; otherwise a scalar loop is used.
__global__ void min_lastdim_warp_kernel(const float* __restrict__ x, float* __restrict__ out,
                                        int64_t rows, int64_t len, bool vec) {
    const int lane = threadIdx.x & 31;
    const int64_t row = (int64_t)blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
    if (row >= rows) return;
    const float* xr = x + row * len;

    float m = INFINITY;
    if (vec) {
        const float4* xr4 = reinterpret_cast<const float4*>(xr);
        const int64_t n4 = len >> 2;
        for (int64_t i = lane; i < n4; i += 32) {
            float4 v = xr4[i];
            m = fminf(m, fminf(fminf(v.x, v.y), fminf(v.z, v.w)));
        }
    } else {
        for (int64_t i = lane; i < len; i += 32) m = fminf(m, xr[i]);
    }
    m = warp_min(m);
    if (lane == 0) out[row] = m;
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
    const bool vec = (len % 4 == 0) && (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0);
    const int threads = 32 * WARPS_PER_BLOCK;
    const unsigned int blocks = (unsigned int)((rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK);
    min_lastdim_warp_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), rows, len, vec);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

warp_min_cpp = "torch::Tensor min_lastdim_cuda(torch::Tensor x);"

warp_min_ext = load_inline(
    name="min_lastdim_warp_per_row_float4",
    cpp_sources=warp_min_cpp,
    cuda_sources=warp_min_source,
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
        out = warp_min_ext.min_lastdim_cuda(xt.view(-1, xt.shape[-1]))
        return out.view(out_shape)
