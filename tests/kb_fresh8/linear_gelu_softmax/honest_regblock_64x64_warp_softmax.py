# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# 64x64 block tile, BK = 8, 256 threads each accumulating a 4x4 register block
# (k-major, padded shared-memory tiles so the inner loop reads contiguous rows);
# epilogue fuses bias + exact GELU.  Softmax: one block per row, three passes with
# warp-shuffle reductions and a tiny shared array for the cross-warp step.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

#define RB_BM 64
#define RB_BN 64
#define RB_BK 8
#define RB_THREADS 256
#define SMX_THREADS 256
#define SMX_WARPS (SMX_THREADS / 32)
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float gelu_exact(float v) {
    return 0.5f * v * (1.0f + erff(v * 0.70710678118654752440f));
}

__global__ void __launch_bounds__(RB_THREADS)
linear_gelu_regblock_kernel(const float* __restrict__ x, const float* __restrict__ W,
                            const float* __restrict__ bias, float* __restrict__ y,
                            int M, int K, int N) {
    __shared__ float As[RB_BK][RB_BM + 4];   // As[k][m]
    __shared__ float Bs[RB_BK][RB_BN + 4];   // Bs[k][n] = W[n][k]
    const int tid = threadIdx.x;
    const int tx = tid & 15;   // column group
    const int ty = tid >> 4;   // row group
    const int m0 = blockIdx.y * RB_BM;
    const int n0 = blockIdx.x * RB_BN;

    float acc[4][4];
    #pragma unroll
    for (int i = 0; i < 4; ++i)
        #pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += RB_BK) {
        #pragma unroll
        for (int l = 0; l < 2; ++l) {
            const int e = tid + l * RB_THREADS;   // 0..511
            const int r = e / RB_BK;              // 0..63
            const int kk = e % RB_BK;             // 0..7
            const int gk = k0 + kk;
            const int gm = m0 + r;
            const int gn = n0 + r;
            As[kk][r] = (gm < M && gk < K) ? x[(size_t)gm * K + gk] : 0.0f;
            Bs[kk][r] = (gn < N && gk < K) ? W[(size_t)gn * K + gk] : 0.0f;
        }
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < RB_BK; ++kk) {
            float a[4], bb[4];
            #pragma unroll
            for (int i = 0; i < 4; ++i) a[i] = As[kk][ty * 4 + i];
            #pragma unroll
            for (int j = 0; j < 4; ++j) bb[j] = Bs[kk][tx * 4 + j];
            #pragma unroll
            for (int i = 0; i < 4; ++i)
                #pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], bb[j], acc[i][j]);
        }
        __syncthreads();
    }

    #pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int gm = m0 + ty * 4 + i;
        if (gm >= M) continue;
        #pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int gn = n0 + tx * 4 + j;
            if (gn < N) y[(size_t)gm * N + gn] = gelu_exact(acc[i][j] + bias[gn]);
        }
    }
}

__device__ __forceinline__ float warp_max(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, off));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL_MASK, v, off);
    return v;
}

__global__ void __launch_bounds__(SMX_THREADS)
softmax_block_warp_kernel(float* __restrict__ y, int N) {
    __shared__ float s_max[SMX_WARPS];
    __shared__ float s_sum[SMX_WARPS];
    const int t = threadIdx.x;
    const int lane = t & 31;
    const int w = t >> 5;
    float* r = y + (size_t)blockIdx.x * N;

    float m = -INFINITY;
    for (int j = t; j < N; j += SMX_THREADS) m = fmaxf(m, r[j]);
    m = warp_max(m);
    if (lane == 0) s_max[w] = m;
    __syncthreads();
    m = (lane < SMX_WARPS) ? s_max[lane] : -INFINITY;
    m = warp_max(m);   // every warp reduces the 8 partials itself

    float s = 0.0f;
    for (int j = t; j < N; j += SMX_THREADS) s += expf(r[j] - m);
    s = warp_sum(s);
    if (lane == 0) s_sum[w] = s;
    __syncthreads();
    s = (lane < SMX_WARPS) ? s_sum[lane] : 0.0f;
    s = warp_sum(s);
    const float inv = 1.0f / s;

    for (int j = t; j < N; j += SMX_THREADS) r[j] = expf(r[j] - m) * inv;
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
    TORCH_CHECK((M + RB_BM - 1) / RB_BM <= 65535, "batch too large for gridDim.y");

    dim3 grid((N + RB_BN - 1) / RB_BN, (M + RB_BM - 1) / RB_BM);
    linear_gelu_regblock_kernel<<<grid, RB_THREADS>>>(xc.data_ptr<float>(), Wc.data_ptr<float>(),
                                                      bc.data_ptr<float>(), y.data_ptr<float>(), M, K, N);
    softmax_block_warp_kernel<<<M, SMX_THREADS>>>(y.data_ptr<float>(), N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_source = "torch::Tensor linear_gelu_softmax_cuda(torch::Tensor x, torch::Tensor W, torch::Tensor b);"

_ext = load_inline(
    name="linear_gelu_softmax_regblock_64x64_warp_softmax",
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
