# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gemm_sigmoid_sum_fused(torch::Tensor x, torch::Tensor weight, torch::Tensor bias);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8      // 32 x 8 threads, each thread owns 4 rows of one output column

// Fused kernel: a 32x32 output tile per block (32x32 shared tiles over K), then bias + sigmoid in registers,
// a warp-shuffle sum over the tile's 32 columns (one warp == one row slice), and one atomicAdd per
// (row, tile) into the zero-initialised output. The (M, N) activation matrix never touches global memory.
__global__ void __launch_bounds__(256) gemm_sigmoid_sum_fused_kernel(
        const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
        float* __restrict__ out, int M, int N, int K) {
    __shared__ float As[TILE][TILE + 1];   // As[m][k]
    __shared__ float Bs[TILE][TILE + 1];   // Bs[n][k]
    const int tx = threadIdx.x;            // 0..31 : column inside the tile / k when loading
    const int ty = threadIdx.y;            // 0..7
    const int m0 = blockIdx.y * TILE;
    const int n0 = blockIdx.x * TILE;

    float acc[TILE / ROWS];
#pragma unroll
    for (int i = 0; i < TILE / ROWS; ++i) acc[i] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TILE) {
        const int k = k0 + tx;
#pragma unroll
        for (int i = 0; i < TILE / ROWS; ++i) {
            const int r = ty + ROWS * i;
            const int gm = m0 + r, gn = n0 + r;
            As[r][tx] = (gm < M && k < K) ? x[(long long)gm * K + k] : 0.0f;
            Bs[r][tx] = (gn < N && k < K) ? w[(long long)gn * K + k] : 0.0f;
        }
        __syncthreads();
#pragma unroll 8
        for (int kk = 0; kk < TILE; ++kk) {
            const float bv = Bs[tx][kk];
#pragma unroll
            for (int i = 0; i < TILE / ROWS; ++i) acc[i] += As[ty + ROWS * i][kk] * bv;
        }
        __syncthreads();
    }

    const int col = n0 + tx;
    const float bias = (col < N) ? b[col] : 0.0f;
#pragma unroll
    for (int i = 0; i < TILE / ROWS; ++i) {
        float v = (col < N) ? 1.0f / (1.0f + expf(-(acc[i] + bias))) : 0.0f;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
        const int row = m0 + ty + ROWS * i;
        if (tx == 0 && row < M) atomicAdd(out + row, v);
    }
}

torch::Tensor gemm_sigmoid_sum_fused(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && weight.scalar_type() == torch::kFloat32 &&
                bias.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && weight.size(1) == x.size(1), "shape mismatch");
    TORCH_CHECK(bias.numel() == weight.size(0), "bias size mismatch");
    x = x.contiguous();
    weight = weight.contiguous();
    bias = bias.contiguous();
    const int M = (int)x.size(0);
    const int K = (int)x.size(1);
    const int N = (int)weight.size(0);
    auto out = torch::zeros({M, 1}, x.options());
    if (M == 0 || N == 0) return out;
    dim3 block(TILE, ROWS);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    TORCH_CHECK(grid.y <= 65535, "batch too large");
    gemm_sigmoid_sum_fused_kernel<<<grid, block>>>(x.data_ptr<float>(), weight.data_ptr<float>(),
                                                   bias.data_ptr<float>(), out.data_ptr<float>(), M, N, K);
    return out;
}
"""

module = load_inline(
    name="gemm_sigmoid_sum_fused_tile32_atomic",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gemm_sigmoid_sum_fused"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return module.gemm_sigmoid_sum_fused(x, self.linear.weight, self.linear.bias)
