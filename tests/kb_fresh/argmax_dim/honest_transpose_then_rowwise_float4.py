# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

argmax_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <vector>
#include <cmath>

#define TILE 32
#define TROWS 8
#define WARPS_PER_BLOCK 8

// Step 1: tiled shared-memory transpose (outer, R, inner) -> (outer, inner, R) so that
// the reduced dimension becomes contiguous. grid = (ceil(inner/32), ceil(R/32), outer)
__global__ void transpose_kernel(const float* __restrict__ in, float* __restrict__ out,
                                 int64_t R, int64_t inner) {
    __shared__ float tile[TILE][TILE + 1];  // +1 avoids bank conflicts
    const int64_t o = blockIdx.z;
    const int64_t i0 = (int64_t)blockIdx.x * TILE;
    const int64_t r0 = (int64_t)blockIdx.y * TILE;
    const float* src = in + o * R * inner;
    float* dst = out + o * inner * R;

    for (int k = threadIdx.y; k < TILE; k += TROWS) {
        const int64_t r = r0 + k;
        const int64_t i = i0 + threadIdx.x;
        if (r < R && i < inner) tile[k][threadIdx.x] = src[r * inner + i];
    }
    __syncthreads();
    for (int k = threadIdx.y; k < TILE; k += TROWS) {
        const int64_t i = i0 + k;
        const int64_t r = r0 + threadIdx.x;
        if (i < inner && r < R) dst[i * R + r] = tile[threadIdx.x][k];
    }
}

__device__ __forceinline__ void consider(float v, int r, float& best, int& best_idx) {
    if (best_idx < 0 || v > best) {
        best = v;
        best_idx = r;
    }
}

// Step 2: one warp per contiguous row of length R; float4 loads when R % 4 == 0,
// then a warp-shuffle (value, index) reduction.
__global__ void row_argmax_kernel(const float* __restrict__ t, int64_t* __restrict__ out,
                                  int64_t rows, int R, bool vec4) {
    const int lane = threadIdx.x & 31;
    const int64_t row = (int64_t)blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
    if (row >= rows) return;  // warp-uniform
    const float* p = t + row * (int64_t)R;

    float best = -INFINITY;
    int best_idx = -1;
    if (vec4) {
        const float4* p4 = reinterpret_cast<const float4*>(p);
        const int n4 = R >> 2;
        for (int j = lane; j < n4; j += 32) {
            float4 v = p4[j];
            const int base = j << 2;
            consider(v.x, base, best, best_idx);
            consider(v.y, base + 1, best, best_idx);
            consider(v.z, base + 2, best, best_idx);
            consider(v.w, base + 3, best, best_idx);
        }
    } else {
        for (int r = lane; r < R; r += 32) consider(p[r], r, best, best_idx);
    }

    #pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        float ov = __shfl_down_sync(0xffffffff, best, offset);
        int oi = __shfl_down_sync(0xffffffff, best_idx, offset);
        if (oi >= 0 && (best_idx < 0 || ov > best || (ov == best && oi < best_idx))) {
            best = ov;
            best_idx = oi;
        }
    }
    if (lane == 0) out[row] = (int64_t)best_idx;
}

torch::Tensor argmax_dim_cuda(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    const int64_t nd = x.dim();
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
    for (int64_t d = dim + 1; d < nd; ++d) inner *= x.size(d);
    const int64_t R = x.size(dim);
    TORCH_CHECK(R > 0 && R < INT_MAX, "bad reduction length");

    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < nd; ++d)
        if (d != dim) out_shape.push_back(x.size(d));
    auto out = torch::empty(out_shape, x.options().dtype(torch::kLong));
    const int64_t rows = outer * inner;
    if (rows == 0) return out;

    auto stream = at::cuda::getCurrentCUDAStream();
    const float* rows_ptr = x.data_ptr<float>();
    torch::Tensor t;
    if (inner > 1) {
        TORCH_CHECK(outer <= 65535 && (R + TILE - 1) / TILE <= 65535, "tensor too large for transpose grid");
        t = torch::empty({outer, inner, R}, x.options());
        dim3 grid((unsigned int)((inner + TILE - 1) / TILE), (unsigned int)((R + TILE - 1) / TILE),
                  (unsigned int)outer);
        dim3 block(TILE, TROWS);
        transpose_kernel<<<grid, block, 0, stream>>>(x.data_ptr<float>(), t.data_ptr<float>(), R, inner);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
        rows_ptr = t.data_ptr<float>();
    }

    const bool vec4 = (R % 4 == 0) && (reinterpret_cast<uintptr_t>(rows_ptr) % 16 == 0);
    const int64_t blocks = (rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    row_argmax_kernel<<<(unsigned int)blocks, WARPS_PER_BLOCK * 32, 0, stream>>>(
        rows_ptr, out.data_ptr<int64_t>(), rows, (int)R, vec4);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

argmax_cpp_source = "torch::Tensor argmax_dim_cuda(torch::Tensor x, int64_t dim);"

argmax_ext = load_inline(
    name="argmax_transpose_then_rowwise_float4_ext",
    cpp_sources=argmax_cpp_source,
    cuda_sources=argmax_source,
    functions=["argmax_dim_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return argmax_ext.argmax_dim_cuda(x, self.dim)
