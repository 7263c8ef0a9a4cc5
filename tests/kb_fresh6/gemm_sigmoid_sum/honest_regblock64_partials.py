# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gemm_sigmoid_sum_regblock(torch::Tensor x, torch::Tensor weight, torch::Tensor bias);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
// 16 x 16 = 256 threads, each computes a 4x4 micro-tile (rows ty + 16*i, cols tx + 16*j).

// Register-blocked GEMM with a fused epilogue: bias + sigmoid, per-row sum over the block's 64 columns
// (in registers, then a 16-lane shuffle reduction), written deterministically to partial[row][blockIdx.x].
__global__ void __launch_bounds__(256) gemm_sigmoid_partial_kernel(
        const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
        float* __restrict__ partial, int M, int N, int K) {
    __shared__ float As[BK][BM + 1];   // As[k][m] (transposed on store)
    __shared__ float Bs[BK][BN + 1];   // Bs[k][n]
    const int tx = threadIdx.x;        // 0..15
    const int ty = threadIdx.y;        // 0..15
    const int tid = ty * 16 + tx;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        // 64 rows x 16 k = 1024 elements per operand, 4 per thread, coalesced along k.
#pragma unroll
        for (int l = 0; l < (BM * BK) / 256; ++l) {
            const int e = tid + 256 * l;
            const int r = e / BK;
            const int c = e % BK;
            const int gk = k0 + c;
            const int gm = m0 + r;
            const int gn = n0 + r;
            As[c][r] = (gm < M && gk < K) ? x[(long long)gm * K + gk] : 0.0f;
            Bs[c][r] = (gn < N && gk < K) ? w[(long long)gn * K + gk] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[TM], bb[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[kk][ty + 16 * i];
#pragma unroll
            for (int j = 0; j < TN; ++j) bb[j] = Bs[kk][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], bb[j], acc[i][j]);
        }
        __syncthreads();
    }

    float bias[TN];
#pragma unroll
    for (int j = 0; j < TN; ++j) {
        const int col = n0 + tx + 16 * j;
        bias[j] = (col < N) ? b[col] : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        float s = 0.0f;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int col = n0 + tx + 16 * j;
            if (col < N) s += 1.0f / (1.0f + __expf(-(acc[i][j] + bias[j])));
        }
        // lanes 0..15 and 16..31 of a warp hold two different ty values: reduce inside each half.
#pragma unroll
        for (int off = 8; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
        const int row = m0 + ty + 16 * i;
        if (tx == 0 && row < M) partial[(long long)row * gridDim.x + blockIdx.x] = s;
    }
}

// One warp per row sums the per-column-block partials (fixed order -> deterministic).
__global__ void partial_sum_kernel(const float* __restrict__ partial, float* __restrict__ out, int M, int P) {
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (warp >= M) return;
    const float* p = partial + (long long)warp * P;
    float s = 0.0f;
    for (int j = lane; j < P; j += 32) s += p[j];
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    if (lane == 0) out[warp] = s;
}

torch::Tensor gemm_sigmoid_sum_regblock(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
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
    const int nblk = (N + BN - 1) / BN;
    const int mblk = (M + BM - 1) / BM;
    TORCH_CHECK(mblk <= 65535, "batch too large");
    auto partial = torch::empty({M, nblk}, x.options());
    gemm_sigmoid_partial_kernel<<<dim3(nblk, mblk), dim3(16, 16)>>>(
        x.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(), partial.data_ptr<float>(), M, N, K);
    const int threads = 256;
    const int blocks = (int)(((long long)M * 32 + threads - 1) / threads);
    partial_sum_kernel<<<blocks, threads>>>(partial.data_ptr<float>(), out.data_ptr<float>(), M, nblk);
    return out;
}
"""

module = load_inline(
    name="gemm_sigmoid_sum_regblock64_partials",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gemm_sigmoid_sum_regblock"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return module.gemm_sigmoid_sum_regblock(x, self.linear.weight, self.linear.bias)
