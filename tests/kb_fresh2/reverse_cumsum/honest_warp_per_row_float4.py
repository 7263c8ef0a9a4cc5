# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

warp_scan_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define WARP_SIZE 32
#define WARPS_PER_BLOCK 8
#define ITEMS 4
#define TILE (WARP_SIZE * ITEMS)

// One warp per row, several rows per block. The warp walks the row backwards in tiles of 128
// elements; every lane owns 4 consecutive elements (one float4 load when the row is 16-byte aligned),
// computes their local suffix sums, and a shuffle-based suffix scan over lanes gives the lane offsets.
template <bool VEC>
__global__ void reverse_cumsum_warp_kernel(const float* __restrict__ x, float* __restrict__ y,
                                           int64_t rows, int64_t len) {
    const int lane = threadIdx.x & (WARP_SIZE - 1);
    const int warp = threadIdx.x / WARP_SIZE;
    const int64_t row = (int64_t)blockIdx.x * WARPS_PER_BLOCK + warp;
    if (row >= rows) return;  // uniform across the warp
    const float* xr = x + row * len;
    float* yr = y + row * len;

    const int64_t ntiles = (len + TILE - 1) / TILE;
    float carry = 0.0f;
    for (int64_t t = 0; t < ntiles; ++t) {
        const int64_t start = len - (t + 1) * TILE;  // may be negative for the last tile
        const int64_t c = start + (int64_t)lane * ITEMS;
        float a[ITEMS];
        if (VEC) {
            // len % 4 == 0, so a group of 4 is either fully inside the row or fully outside
            if (c >= 0) {
                float4 v = *reinterpret_cast<const float4*>(xr + c);
                a[0] = v.x; a[1] = v.y; a[2] = v.z; a[3] = v.w;
            } else {
                a[0] = a[1] = a[2] = a[3] = 0.0f;
            }
        } else {
#pragma unroll
            for (int j = 0; j < ITEMS; ++j) a[j] = (c + j >= 0) ? xr[c + j] : 0.0f;
        }

        // local suffix sums inside the lane
        float s[ITEMS];
        s[ITEMS - 1] = a[ITEMS - 1];
#pragma unroll
        for (int j = ITEMS - 2; j >= 0; --j) s[j] = s[j + 1] + a[j];
        const float lane_total = s[0];

        // inclusive suffix scan over lanes (higher lanes hold higher columns)
        float incl = lane_total;
#pragma unroll
        for (int o = 1; o < WARP_SIZE; o <<= 1) {
            float n = __shfl_down_sync(0xffffffff, incl, o);
            if (lane + o < WARP_SIZE) incl += n;
        }
        float excl = __shfl_down_sync(0xffffffff, incl, 1);
        if (lane == WARP_SIZE - 1) excl = 0.0f;
        const float tile_total = __shfl_sync(0xffffffff, incl, 0);
        const float off = carry + excl;

        if (VEC) {
            if (c >= 0) {
                float4 o4 = make_float4(off + s[0], off + s[1], off + s[2], off + s[3]);
                *reinterpret_cast<float4*>(yr + c) = o4;
            }
        } else {
#pragma unroll
            for (int j = 0; j < ITEMS; ++j)
                if (c + j >= 0) yr[c + j] = off + s[j];
        }
        carry += tile_total;
    }
}

torch::Tensor reverse_cumsum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2D (rows, len)");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const int64_t rows = x.size(0);
    const int64_t len = x.size(1);
    if (rows == 0 || len == 0) return y;

    const int threads = WARP_SIZE * WARPS_PER_BLOCK;
    const unsigned int blocks = (unsigned int)((rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK);
    const bool aligned = (len % 4 == 0) &&
                         (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(y.data_ptr<float>()) % 16 == 0);
    auto stream = at::cuda::getCurrentCUDAStream();
    if (aligned) {
        reverse_cumsum_warp_kernel<true><<<blocks, threads, 0, stream>>>(
            x.data_ptr<float>(), y.data_ptr<float>(), rows, len);
    } else {
        reverse_cumsum_warp_kernel<false><<<blocks, threads, 0, stream>>>(
            x.data_ptr<float>(), y.data_ptr<float>(), rows, len);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

warp_scan_cpp = "torch::Tensor reverse_cumsum_cuda(torch::Tensor x);"

warp_scan = load_inline(
    name="reverse_cumsum_warp_per_row_float4",
    cpp_sources=warp_scan_cpp,
    cuda_sources=warp_scan_source,
    functions=["reverse_cumsum_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        xt = x.movedim(d, -1).contiguous()
        shape = xt.shape
        out = warp_scan.reverse_cumsum_cuda(xt.view(-1, shape[-1]))
        return out.view(shape).movedim(-1, d)
