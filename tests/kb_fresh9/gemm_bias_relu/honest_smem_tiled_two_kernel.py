# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gemm_bias_relu_tiled(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TILE 32

// Classic 32x32 shared-memory tiled GEMM: out[m, n] = sum_k x[m, k] * W[n, k].
// Both tiles are loaded coalesced along K; the W tile is padded to 33 columns so
// that reading Ws[tx][kk] across a warp hits 32 different banks.
__global__ void gemm_tiled_kernel(const float* __restrict__ x,
                                  const float* __restrict__ w,
                                  float* __restrict__ out,
                                  int M, int N, int K) {
    __shared__ float Xs[TILE][TILE];
    __shared__ float Ws[TILE][TILE + 1];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int m = blockIdx.y * TILE + ty;        // output row
    const int n = blockIdx.x * TILE + tx;        // output column
    const int wrow = blockIdx.x * TILE + ty;     // W row loaded by this thread
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        const int k = k0 + tx;
        Xs[ty][tx] = (m < M && k < K) ? x[(size_t)m * K + k] : 0.0f;
        Ws[ty][tx] = (wrow < N && k < K) ? w[(size_t)wrow * K + k] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < TILE; ++kk) {
            acc = fmaf(Xs[ty][kk], Ws[tx][kk], acc);
        }
        __syncthreads();
    }
    if (m < M && n < N) out[(size_t)m * N + n] = acc;
}

// Second pass: out = relu(out + bias[col]), grid-stride over all elements.
__global__ void bias_relu_kernel(float* __restrict__ out, const float* __restrict__ b,
                                 long long total, int N) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (; i < total; i += stride) {
        const int col = (int)(i % N);
        const float v = out[i] + b[col];
        out[i] = v > 0.0f ? v : 0.0f;
    }
}

torch::Tensor gemm_bias_relu_tiled(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(x.dim() == 2 && w.dim() == 2 && b.dim() == 1, "bad ranks");
    TORCH_CHECK(x.size(1) == w.size(1) && w.size(0) == b.size(0), "shape mismatch");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    const int M = (int)xc.size(0);
    const int K = (int)xc.size(1);
    const int N = (int)wc.size(0);
    auto out = torch::empty({M, N}, xc.options());
    if (M == 0 || N == 0) return out;
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    gemm_tiled_kernel<<<grid, block>>>(xc.data_ptr<float>(), wc.data_ptr<float>(),
                                       out.data_ptr<float>(), M, N, K);
    const long long total = (long long)M * N;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    if (blocks > 8192) blocks = 8192;
    bias_relu_kernel<<<(unsigned)blocks, threads>>>(out.data_ptr<float>(), bc.data_ptr<float>(), total, N);
    return out;
}
"""

_mod = load_inline(
    name="gemm_bias_relu_honest_smem_tiled_two_kernel",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gemm_bias_relu_tiled"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.gemm_bias_relu_tiled(x, self.linear.weight, self.linear.bias)
