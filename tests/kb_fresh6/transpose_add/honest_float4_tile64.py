# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor transpose_add_vec4(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define VT 64          // tile edge for the vectorised kernel
#define VTHREADS 16    // 16 x 16 threads, each thread handles 4 float4 per phase
#define ST 32          // scalar fallback tile
#define SROWS 8

// Vectorised kernel: 64x64 output tile (rows by*VT.., cols bx*VT..). The transposed source tile
// x[bx*VT.., by*VT..] is read with float4 loads into padded shared memory; the direct term x[i][j]
// is read with float4 loads and the result is written with float4 stores.
// Requires N % 4 == 0 and 16-byte aligned x / y (checked on the host).
__global__ void __launch_bounds__(256) transpose_add_vec4_kernel(const float* __restrict__ x,
                                                                 float* __restrict__ y, int N) {
    __shared__ float tile[VT][VT + 1];
    const int tx = threadIdx.x;   // float4 column group 0..15
    const int ty = threadIdx.y;   // 0..15
    const int bx = blockIdx.x;
    const int by = blockIdx.y;

    const int src_col = by * VT + 4 * tx;
#pragma unroll
    for (int l = 0; l < VT / VTHREADS; ++l) {
        const int r = ty + VTHREADS * l;
        const int src_row = bx * VT + r;
        if (src_row < N && src_col < N) {
            float4 v = __ldg(reinterpret_cast<const float4*>(x + (long long)src_row * N + src_col));
            tile[r][4 * tx + 0] = v.x;
            tile[r][4 * tx + 1] = v.y;
            tile[r][4 * tx + 2] = v.z;
            tile[r][4 * tx + 3] = v.w;
        }
    }
    __syncthreads();

    // y[i][j0 + q] = x[i][j0 + q] + x[j0 + q][i] with x[j0 + q][i] = tile[4*tx + q][r]
    const int j0 = bx * VT + 4 * tx;
#pragma unroll
    for (int l = 0; l < VT / VTHREADS; ++l) {
        const int r = ty + VTHREADS * l;
        const int i = by * VT + r;
        if (i < N && j0 < N) {
            const long long o = (long long)i * N + j0;
            float4 a = __ldg(reinterpret_cast<const float4*>(x + o));
            a.x += tile[4 * tx + 0][r];
            a.y += tile[4 * tx + 1][r];
            a.z += tile[4 * tx + 2][r];
            a.w += tile[4 * tx + 3][r];
            *reinterpret_cast<float4*>(y + o) = a;
        }
    }
}

// Scalar fallback for N % 4 != 0 or unaligned storage: classic 32x32 padded-tile transpose-add.
__global__ void transpose_add_scalar_kernel(const float* __restrict__ x, float* __restrict__ y, int N) {
    __shared__ float tile[ST][ST + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int src_col = blockIdx.y * ST + tx;
    for (int r = ty; r < ST; r += SROWS) {
        int src_row = blockIdx.x * ST + r;
        if (src_row < N && src_col < N) tile[r][tx] = x[(long long)src_row * N + src_col];
    }
    __syncthreads();
    const int j = blockIdx.x * ST + tx;
    for (int r = ty; r < ST; r += SROWS) {
        int i = blockIdx.y * ST + r;
        if (i < N && j < N) {
            long long o = (long long)i * N + j;
            y[o] = x[o] + tile[tx][r];
        }
    }
}

torch::Tensor transpose_add_vec4(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2 && x.size(0) == x.size(1), "x must be square");
    x = x.contiguous();
    const int N = (int)x.size(0);
    auto y = torch::empty_like(x);
    if (N == 0) return y;
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    const bool aligned = ((reinterpret_cast<uintptr_t>(px) | reinterpret_cast<uintptr_t>(py)) & 15) == 0;
    if (aligned && (N % 4 == 0)) {
        const int tiles = (N + VT - 1) / VT;
        TORCH_CHECK(tiles <= 65535, "matrix too large for 2D grid");
        transpose_add_vec4_kernel<<<dim3(tiles, tiles), dim3(VTHREADS, VTHREADS)>>>(px, py, N);
    } else {
        const int tiles = (N + ST - 1) / ST;
        TORCH_CHECK(tiles <= 65535, "matrix too large for 2D grid");
        transpose_add_scalar_kernel<<<dim3(tiles, tiles), dim3(ST, SROWS)>>>(px, py, N);
    }
    return y;
}
"""

module = load_inline(
    name="transpose_add_float4_tile64",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["transpose_add_vec4"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return module.transpose_add_vec4(x)
