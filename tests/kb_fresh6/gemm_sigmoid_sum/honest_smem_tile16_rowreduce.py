# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gemm_sigmoid_sum_tiled(torch::Tensor x, torch::Tensor weight, torch::Tensor bias);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TILE 16

// Shared-memory tiled GEMM (16x16 tiles) computing act = sigmoid(x @ W^T + b) into a (M, N) buffer.
// Both x and W are K-contiguous, so both tiles are loaded coalesced along K.
__global__ void linear_sigmoid_tiled_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                            const float* __restrict__ b, float* __restrict__ act,
                                            int M, int N, int K) {
    __shared__ float As[TILE][TILE];       // As[m][k]
    __shared__ float Bs[TILE][TILE + 1];   // Bs[n][k], padded: read column-wise below
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;        // output row (batch index)
    const int col = blockIdx.x * TILE + tx;        // output column (feature)
    const int wrow = blockIdx.x * TILE + ty;       // weight row loaded by this thread
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        const int k = k0 + tx;
        As[ty][tx] = (row < M && k < K) ? x[(long long)row * K + k] : 0.0f;
        Bs[ty][tx] = (wrow < N && k < K) ? w[(long long)wrow * K + k] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TILE; ++kk) acc += As[ty][kk] * Bs[tx][kk];
        __syncthreads();
    }
    if (row < M && col < N) {
        float z = acc + b[col];
        act[(long long)row * N + col] = 1.0f / (1.0f + expf(-z));
    }
}

// One block per row: strided partial sums, warp-shuffle reduction, then across warps via shared memory.
__global__ void row_sum_kernel(const float* __restrict__ act, float* __restrict__ out, int N) {
    __shared__ float warp_sums[32];
    const int row = blockIdx.x;
    const float* a = act + (long long)row * N;
    float s = 0.0f;
    for (int j = threadIdx.x; j < N; j += blockDim.x) s += a[j];
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
        const int nwarps = blockDim.x >> 5;
        s = (lane < nwarps) ? warp_sums[lane] : 0.0f;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
        if (lane == 0) out[row] = s;
    }
}

torch::Tensor gemm_sigmoid_sum_tiled(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
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
    auto out = torch::empty({M, 1}, x.options());
    if (M == 0) return out;
    auto act = torch::empty({M, N}, x.options());
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    TORCH_CHECK(grid.y <= 65535, "batch too large");
    if (N > 0)
        linear_sigmoid_tiled_kernel<<<grid, block>>>(x.data_ptr<float>(), weight.data_ptr<float>(),
                                                     bias.data_ptr<float>(), act.data_ptr<float>(), M, N, K);
    row_sum_kernel<<<M, 256>>>(act.data_ptr<float>(), out.data_ptr<float>(), N);
    return out;
}
"""

module = load_inline(
    name="gemm_sigmoid_sum_smem_tile16_rowreduce",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gemm_sigmoid_sum_tiled"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return module.gemm_sigmoid_sum_tiled(x, self.linear.weight, self.linear.bias)
