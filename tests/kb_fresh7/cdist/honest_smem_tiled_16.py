# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cdist_tiled_cpp = "torch::Tensor cdist_tiled_forward(torch::Tensor x, torch::Tensor y);"

cdist_tiled_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TILE 16

// Classic 16x16 shared-memory tiling: each block computes a 16x16 output tile,
// stepping over the feature dimension in chunks of 16 and accumulating (x-y)^2.
__global__ void cdist_tiled_kernel(const float* __restrict__ x, const float* __restrict__ y,
                                   float* __restrict__ out, int M, int N, int D) {
    __shared__ float xs[TILE][TILE + 1];
    __shared__ float ys[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int i0 = blockIdx.y * TILE, j0 = blockIdx.x * TILE;
    int i = i0 + ty, j = j0 + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < D; k0 += TILE) {
        int k = k0 + tx;
        int xr = i0 + ty, yr = j0 + ty;
        xs[ty][tx] = (xr < M && k < D) ? x[(long long)xr * D + k] : 0.0f;
        ys[ty][tx] = (yr < N && k < D) ? y[(long long)yr * D + k] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TILE; ++kk) {
            float d = xs[ty][kk] - ys[tx][kk];
            acc += d * d;
        }
        __syncthreads();
    }
    if (i < M && j < N) out[(long long)i * N + j] = sqrtf(acc);
}

torch::Tensor cdist_tiled_forward(torch::Tensor x, torch::Tensor y) {
    TORCH_CHECK(x.is_cuda() && y.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && y.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 2 && y.dim() == 2 && x.size(1) == y.size(1), "shape mismatch");
    x = x.contiguous();
    y = y.contiguous();
    int M = x.size(0), N = y.size(0), D = x.size(1);
    auto out = torch::empty({M, N}, x.options());
    if (M == 0 || N == 0) return out;
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    cdist_tiled_kernel<<<grid, block>>>(x.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(), M, N, D);
    return out;
}
"""

cdist_tiled_mod = load_inline(
    name="cdist_smem_tiled_16_kb7",
    cpp_sources=cdist_tiled_cpp,
    cuda_sources=cdist_tiled_cuda,
    functions=["cdist_tiled_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return cdist_tiled_mod.cdist_tiled_forward(x, y)
