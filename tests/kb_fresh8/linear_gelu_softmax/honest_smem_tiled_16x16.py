# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Classic 16x16 shared-memory tiled GEMM (one output per thread, W tile padded to
# avoid bank conflicts) with the bias add + exact GELU fused into the epilogue,
# followed by a block-per-row softmax using shared-memory tree reductions.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

#define TS 16
#define SM_THREADS 256

__device__ __forceinline__ float gelu_exact(float v) {
    return 0.5f * v * (1.0f + erff(v * 0.70710678118654752440f));
}

__global__ void linear_gelu_tiled_kernel(const float* __restrict__ x, const float* __restrict__ W,
                                         const float* __restrict__ b, float* __restrict__ y,
                                         int M, int K, int N) {
    __shared__ float As[TS][TS + 1];   // As[m][k]
    __shared__ float Bs[TS][TS + 1];   // Bs[n][k]  (rows of W)
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TS + ty;     // output row (batch)
    const int col = blockIdx.x * TS + tx;     // output column (feature)
    const int wrow = blockIdx.x * TS + ty;    // W row this thread stages
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        const int k = k0 + tx;
        As[ty][tx] = (row < M && k < K) ? x[(size_t)row * K + k] : 0.0f;
        Bs[ty][tx] = (wrow < N && k < K) ? W[(size_t)wrow * K + k] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < TS; ++kk) acc += As[ty][kk] * Bs[tx][kk];
        __syncthreads();
    }
    if (row < M && col < N) y[(size_t)row * N + col] = gelu_exact(acc + b[col]);
}

__global__ void softmax_block_tree_kernel(float* __restrict__ y, int N) {
    __shared__ float red[SM_THREADS];
    const int t = threadIdx.x;
    float* r = y + (size_t)blockIdx.x * N;

    float m = -INFINITY;
    for (int j = t; j < N; j += SM_THREADS) m = fmaxf(m, r[j]);
    red[t] = m;
    __syncthreads();
    for (int s = SM_THREADS / 2; s > 0; s >>= 1) {
        if (t < s) red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (int j = t; j < N; j += SM_THREADS) sum += expf(r[j] - m);
    red[t] = sum;
    __syncthreads();
    for (int s = SM_THREADS / 2; s > 0; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    const float inv = 1.0f / red[0];

    for (int j = t; j < N; j += SM_THREADS) r[j] = expf(r[j] - m) * inv;
}

torch::Tensor linear_gelu_softmax_cuda(torch::Tensor x, torch::Tensor W, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && W.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && W.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(x.dim() == 2 && W.dim() == 2 && b.dim() == 1, "bad ranks");
    TORCH_CHECK(x.size(1) == W.size(1) && W.size(0) == b.size(0), "shape mismatch");
    auto xc = x.contiguous();
    auto Wc = W.contiguous();
    auto bc = b.contiguous();
    const int M = (int)xc.size(0), K = (int)xc.size(1), N = (int)Wc.size(0);
    auto y = torch::empty({M, N}, xc.options());
    if (M == 0 || N == 0) return y;
    TORCH_CHECK((M + TS - 1) / TS <= 65535, "batch too large for gridDim.y");

    dim3 block(TS, TS);
    dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS);
    linear_gelu_tiled_kernel<<<grid, block>>>(xc.data_ptr<float>(), Wc.data_ptr<float>(),
                                              bc.data_ptr<float>(), y.data_ptr<float>(), M, K, N);
    softmax_block_tree_kernel<<<M, SM_THREADS>>>(y.data_ptr<float>(), N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_source = "torch::Tensor linear_gelu_softmax_cuda(torch::Tensor x, torch::Tensor W, torch::Tensor b);"

_ext = load_inline(
    name="linear_gelu_softmax_smem_tiled_16x16",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["linear_gelu_softmax_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.linear_gelu_softmax_cuda(x, self.linear.weight, self.linear.bias)
