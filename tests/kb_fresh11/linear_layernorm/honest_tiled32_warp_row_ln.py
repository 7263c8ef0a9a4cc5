# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor linear_layernorm_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, torch::Tensor gamma, torch::Tensor beta, double eps);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <vector>

// Strategy: two kernels. (1) 32x32 shared-memory tiled GEMM y = x W^T + b, one output per thread,
// with coalesced loads along K for both x and W (padded tiles avoid bank conflicts);
// (2) LayerNorm with one warp per row: float4 passes over the row for the mean and the
// centred sum of squares, warp-shuffle all-reductions, then the affine write-back in place.
#define TILE 32

__global__ void linear_tiled_kernel(const float* __restrict__ x, const float* __restrict__ W,
                                    const float* __restrict__ bias, float* __restrict__ y,
                                    int M, int N, int K) {
    __shared__ float Xs[TILE][TILE + 1];   // Xs[m_local][k_local]
    __shared__ float Ws[TILE][TILE + 1];   // Ws[n_local][k_local]
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int m0 = blockIdx.y * TILE, n0 = blockIdx.x * TILE;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        const int k = k0 + tx;
        Xs[ty][tx] = (m0 + ty < M && k < K) ? x[(size_t)(m0 + ty) * K + k] : 0.0f;
        Ws[ty][tx] = (n0 + ty < N && k < K) ? W[(size_t)(n0 + ty) * K + k] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < TILE; ++kk) acc += Xs[ty][kk] * Ws[tx][kk];
        __syncthreads();
    }
    const int row = m0 + ty, col = n0 + tx;
    if (row < M && col < N) y[(size_t)row * N + col] = acc + bias[col];
}

__device__ __forceinline__ float warp_allsum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

template <bool VEC>
__global__ void layernorm_warp_row_kernel(float* __restrict__ y, const float* __restrict__ gamma,
                                          const float* __restrict__ beta, int M, int N, float eps) {
    const int warps_per_block = blockDim.x >> 5;
    const int row = blockIdx.x * warps_per_block + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= M) return;   // uniform per warp; no block-level barriers below
    float* r = y + (size_t)row * N;

    float sum = 0.0f;
    if (VEC) {
        const float4* r4 = reinterpret_cast<const float4*>(r);
        for (int i = lane; i < (N >> 2); i += 32) {
            const float4 v = r4[i];
            sum += (v.x + v.y) + (v.z + v.w);
        }
    } else {
        for (int i = lane; i < N; i += 32) sum += r[i];
    }
    const float mean = warp_allsum(sum) / (float)N;

    float sq = 0.0f;
    if (VEC) {
        const float4* r4 = reinterpret_cast<const float4*>(r);
        for (int i = lane; i < (N >> 2); i += 32) {
            const float4 v = r4[i];
            const float a = v.x - mean, b = v.y - mean, c = v.z - mean, d = v.w - mean;
            sq += a * a + b * b + c * c + d * d;
        }
    } else {
        for (int i = lane; i < N; i += 32) { const float d = r[i] - mean; sq += d * d; }
    }
    const float rstd = rsqrtf(warp_allsum(sq) / (float)N + eps);

    if (VEC) {
        float4* r4 = reinterpret_cast<float4*>(r);
        const float4* g4 = reinterpret_cast<const float4*>(gamma);
        const float4* b4 = reinterpret_cast<const float4*>(beta);
        for (int i = lane; i < (N >> 2); i += 32) {
            float4 v = r4[i];
            const float4 g = __ldg(g4 + i);
            const float4 b = __ldg(b4 + i);
            v.x = (v.x - mean) * rstd * g.x + b.x;
            v.y = (v.y - mean) * rstd * g.y + b.y;
            v.z = (v.z - mean) * rstd * g.z + b.z;
            v.w = (v.w - mean) * rstd * g.w + b.w;
            r4[i] = v;
        }
    } else {
        for (int i = lane; i < N; i += 32) r[i] = (r[i] - mean) * rstd * __ldg(gamma + i) + __ldg(beta + i);
    }
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
    const float* pg = gc.data_ptr<float>();
    const float* pb = bec.data_ptr<float>();

    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    linear_tiled_kernel<<<grid, block>>>(xc.data_ptr<float>(), Wc.data_ptr<float>(), bc.data_ptr<float>(),
                                         py, M, N, K);

    const bool vec = (N % 4 == 0) && ((reinterpret_cast<uintptr_t>(py) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(pg) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(pb) & 15) == 0);
    const int threads = 256;                 // 8 rows per block
    const int rows_per_block = threads / 32;
    const int blocks = (M + rows_per_block - 1) / rows_per_block;
    if (vec) layernorm_warp_row_kernel<true><<<blocks, threads>>>(py, pg, pb, M, N, (float)eps);
    else     layernorm_warp_row_kernel<false><<<blocks, threads>>>(py, pg, pb, M, N, (float)eps);

    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

linear_ln_mod = load_inline(
    name="kbf11_linear_ln_tiled32_warp_row_ln",
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
