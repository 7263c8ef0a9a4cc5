# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

// 64x64 tile transpose with 128-bit global memory traffic: each of the 256
// threads loads four float4 from rows of x and stores four float4 into rows of
// out. The float4 path is only used when M and N are multiples of 4 and both
// pointers are 16-byte aligned (then every row start is aligned too), and only
// for tiles that lie fully inside the matrix; edge tiles and unaligned inputs
// take a bounds-checked scalar path.
#define TILE 64
#define THREADS 256
#define VEC_PER_ROW (TILE / 4)            // 16 float4 per tile row
#define ROW_STEP (THREADS / VEC_PER_ROW)  // 16 rows per pass

template <bool VEC>
__global__ void __launch_bounds__(THREADS)
permute021_float4_kernel(const float* __restrict__ x, float* __restrict__ out,
                         int M, int N, int tiles_n) {
    __shared__ float tile[TILE][TILE + 1];
    const int tid = threadIdx.x;
    const long long b = blockIdx.y;
    const int i0 = (blockIdx.x / tiles_n) * TILE;
    const int j0 = (blockIdx.x % tiles_n) * TILE;
    const float* xb = x + b * (long long)M * N;
    float* ob = out + b * (long long)M * N;

    const bool full = VEC && (i0 + TILE <= M) && (j0 + TILE <= N);
    if (full) {
        const int c4 = tid % VEC_PER_ROW;   // float4 column inside the tile
        const int r0 = tid / VEC_PER_ROW;   // 0..15
        float4 v[TILE / ROW_STEP];
#pragma unroll
        for (int k = 0; k < TILE / ROW_STEP; ++k) {
            const int r = r0 + k * ROW_STEP;
            v[k] = __ldg(reinterpret_cast<const float4*>(xb + (long long)(i0 + r) * N + j0) + c4);
        }
#pragma unroll
        for (int k = 0; k < TILE / ROW_STEP; ++k) {
            const int r = r0 + k * ROW_STEP;
            tile[r][4 * c4 + 0] = v[k].x;
            tile[r][4 * c4 + 1] = v[k].y;
            tile[r][4 * c4 + 2] = v[k].z;
            tile[r][4 * c4 + 3] = v[k].w;
        }
        __syncthreads();
        // out row j0 + r, columns i0 + 4*c4 .. +3  =  x[i0 + 4*c4 + q][j0 + r] = tile[4*c4 + q][r]
#pragma unroll
        for (int k = 0; k < TILE / ROW_STEP; ++k) {
            const int r = r0 + k * ROW_STEP;
            float4 o;
            o.x = tile[4 * c4 + 0][r];
            o.y = tile[4 * c4 + 1][r];
            o.z = tile[4 * c4 + 2][r];
            o.w = tile[4 * c4 + 3][r];
            reinterpret_cast<float4*>(ob + (long long)(j0 + r) * M + i0)[c4] = o;
        }
    } else {
        // scalar fallback: 64 threads across a row, 4 rows per pass
        const int c = tid % TILE;
        const int r0 = tid / TILE;
        for (int r = r0; r < TILE; r += THREADS / TILE) {
            const int i = i0 + r, j = j0 + c;
            if (i < M && j < N) tile[r][c] = xb[(long long)i * N + j];
        }
        __syncthreads();
        for (int r = r0; r < TILE; r += THREADS / TILE) {
            const int j = j0 + r, i = i0 + c;
            if (j < N && i < M) ob[(long long)j * M + i] = tile[c][r];
        }
    }
}

torch::Tensor permute021_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be 3-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    const int B = (int)x.size(0), M = (int)x.size(1), N = (int)x.size(2);
    auto out = torch::empty({B, N, M}, x.options());
    if (B == 0 || M == 0 || N == 0) return out;
    TORCH_CHECK(B <= 65535, "batch too large for grid.y");

    const int tiles_m = (M + TILE - 1) / TILE;
    const int tiles_n = (N + TILE - 1) / TILE;
    dim3 grid((unsigned int)((long long)tiles_m * tiles_n), B);

    const float* xp = x.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const bool aligned = (reinterpret_cast<std::uintptr_t>(xp) % 16 == 0) &&
                         (reinterpret_cast<std::uintptr_t>(op) % 16 == 0);
    const bool vec_ok = aligned && (M % 4 == 0) && (N % 4 == 0);
    if (vec_ok) {
        permute021_float4_kernel<true><<<grid, THREADS>>>(xp, op, M, N, tiles_n);
    } else {
        permute021_float4_kernel<false><<<grid, THREADS>>>(xp, op, M, N, tiles_n);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "permute021_float4_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_src = "torch::Tensor permute021_forward(torch::Tensor x);"

permute_ext = load_inline(
    name="permute_021_float4_tile64",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["permute021_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return permute_ext.permute021_forward(x.contiguous())
