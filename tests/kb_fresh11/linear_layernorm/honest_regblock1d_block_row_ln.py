# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor linear_layernorm_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, torch::Tensor gamma, torch::Tensor beta, double eps);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>

// Strategy: two kernels. (1) GEMM + bias with 1D register blocking: 64x64 output tile per block of
// 512 threads, K staged through k-major shared memory in slices of 8, each thread accumulating a
// column strip of 8 outputs so one W value is reused 8 times from a register.
// (2) LayerNorm with one block per row: the row is staged once in dynamic shared memory (when it
// fits), then mean and centred variance come from block reductions (warp shuffles + smem) and the
// normalised row is written back.
#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define GEMM_THREADS ((BM * BN) / TM)   // 512
#define PAD 4
#define LN_THREADS 256

__global__ void __launch_bounds__(GEMM_THREADS)
linear_1d_kernel(const float* __restrict__ x, const float* __restrict__ W, const float* __restrict__ bias,
                 float* __restrict__ y, int M, int N, int K) {
    __shared__ float Xs[BK][BM + PAD];   // Xs[k][m]
    __shared__ float Ws[BK][BN + PAD];   // Ws[k][n]
    const int tid = threadIdx.x;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const int load_r = tid / BK, load_c = tid % BK;    // 64 rows x 8 k
    const int tcol = tid % BN, trow = tid / BN;        // column tcol, rows trow*8 .. +7

    float acc[TM];
    #pragma unroll
    for (int i = 0; i < TM; ++i) acc[i] = 0.0f;

    const int xr = m0 + load_r, wr = n0 + load_r;
    for (int k0 = 0; k0 < K; k0 += BK) {
        const int k = k0 + load_c;
        Xs[load_c][load_r] = (xr < M && k < K) ? x[(size_t)xr * K + k] : 0.0f;
        Ws[load_c][load_r] = (wr < N && k < K) ? W[(size_t)wr * K + k] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            const float w = Ws[kk][tcol];
            #pragma unroll
            for (int i = 0; i < TM; ++i) acc[i] += Xs[kk][trow * TM + i] * w;
        }
        __syncthreads();
    }
    const int col = n0 + tcol;
    if (col < N) {
        const float bv = bias[col];
        #pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int row = m0 + trow * TM + i;
            if (row < M) y[(size_t)row * N + col] = acc[i] + bv;
        }
    }
}

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// Block-wide sum broadcast to all threads; red must hold >= 33 floats.
__device__ __forceinline__ float block_sum(float v, float* red) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    v = warp_sum(v);
    __syncthreads();
    if (lane == 0) red[warp] = v;
    __syncthreads();
    if (warp == 0) {
        float r = (lane < nwarps) ? red[lane] : 0.0f;
        r = warp_sum(r);
        if (lane == 0) red[32] = r;
    }
    __syncthreads();
    return red[32];
}

__global__ void __launch_bounds__(LN_THREADS)
layernorm_block_row_kernel(float* y, const float* __restrict__ gamma, const float* __restrict__ beta,
                           int M, int N, float eps, int cache_in_smem) {
    extern __shared__ float row_cache[];
    __shared__ float red[33];
    const int row = blockIdx.x;
    if (row >= M) return;
    float* yr = y + (size_t)row * N;

    const float* src = yr;
    if (cache_in_smem) {
        for (int i = threadIdx.x; i < N; i += blockDim.x) row_cache[i] = yr[i];
        __syncthreads();
        src = row_cache;
    }

    float s = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) s += src[i];
    const float mean = block_sum(s, red) / (float)N;

    float sq = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) { const float d = src[i] - mean; sq += d * d; }
    const float rstd = rsqrtf(block_sum(sq, red) / (float)N + eps);

    // each thread reads and writes only its own indices here, so in-place is safe
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        yr[i] = (src[i] - mean) * rstd * __ldg(gamma + i) + __ldg(beta + i);
}

torch::Tensor linear_layernorm_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                                    torch::Tensor gamma, torch::Tensor beta, double eps) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda() && gamma.is_cuda() && beta.is_cuda(),
                "all tensors must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && weight.scalar_type() == torch::kFloat32 &&
                bias.scalar_type() == torch::kFloat32 && gamma.scalar_type() == torch::kFloat32 &&
                beta.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(weight.dim() == 2 && x.dim() >= 1, "bad dims");
    const int N = (int)weight.size(0);
    const int K = (int)weight.size(1);
    TORCH_CHECK(x.size(-1) == K, "x last dim must equal in_features");
    TORCH_CHECK(bias.numel() == N && gamma.numel() == N && beta.numel() == N, "bad parameter sizes");

    auto xc = x.contiguous();
    auto Wc = weight.contiguous();
    auto bc = bias.contiguous();
    auto gc = gamma.contiguous();
    auto bec = beta.contiguous();

    std::vector<int64_t> out_sizes(xc.sizes().begin(), xc.sizes().end());
    out_sizes.back() = N;
    int64_t M64 = 1;
    for (size_t i = 0; i + 1 < out_sizes.size(); ++i) M64 *= out_sizes[i];
    const int M = (int)M64;
    auto out = torch::empty(out_sizes, xc.options());
    if (M == 0 || N == 0) return out;
    float* py = out.data_ptr<float>();

    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    linear_1d_kernel<<<grid, GEMM_THREADS>>>(xc.data_ptr<float>(), Wc.data_ptr<float>(), bc.data_ptr<float>(),
                                             py, M, N, K);

    // stage the row in dynamic shared memory when it fits in the default 48 KB (minus the reduction buffer)
    const size_t row_bytes = (size_t)N * sizeof(float);
    const int cache = row_bytes <= 40 * 1024 ? 1 : 0;
    layernorm_block_row_kernel<<<M, LN_THREADS, cache ? row_bytes : 0>>>(
        py, gc.data_ptr<float>(), bec.data_ptr<float>(), M, N, (float)eps, cache);

    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

linear_ln_mod = load_inline(
    name="kbf11_linear_ln_regblock1d_block_row_ln",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["linear_layernorm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.norm = nn.LayerNorm(out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return linear_ln_mod.linear_layernorm_cuda(
            x, self.linear.weight, self.linear.bias, self.norm.weight, self.norm.bias, float(self.norm.eps))
