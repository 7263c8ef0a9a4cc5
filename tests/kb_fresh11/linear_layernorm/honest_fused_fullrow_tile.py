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

// Strategy: one fully fused kernel. Each block owns 16 complete rows of the output (all
// out_features <= 1024 columns), so the LayerNorm statistics never leave the chip: the GEMM
// accumulates an 8x8 register tile per thread (256 threads = 2 row groups x 128 column groups,
// columns tc*4..+3 and 512+tc*4..+3 so shared-memory fragment reads are conflict-free float4s),
// with the next K slice of x and W prefetched into registers while the current one is consumed.
// The epilogue adds the bias, computes mean and centred variance per row straight from the
// accumulators (warp shuffles + a small shared buffer), and writes the normalised rows once.
// Rows wider than 1024 fall back to a tiled GEMM + block-per-row LayerNorm.
#define FBM 16
#define FBN 1024
#define FBK 8
#define FTHREADS 256
#define FPAD 4

template <bool VEC>
__device__ __forceinline__ float4 load_k4(const float* __restrict__ P, int row, int nrows, int k, int K) {
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    if (row < nrows) {
        const float* p = P + (size_t)row * K;
        if (VEC) {
            if (k < K) v = __ldg(reinterpret_cast<const float4*>(p + k));   // K%4==0, k%4==0
        } else {
            if (k     < K) v.x = __ldg(p + k);
            if (k + 1 < K) v.y = __ldg(p + k + 1);
            if (k + 2 < K) v.z = __ldg(p + k + 2);
            if (k + 3 < K) v.w = __ldg(p + k + 3);
        }
    }
    return v;
}

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

template <bool VEC>
__global__ void __launch_bounds__(FTHREADS, 1)
linear_ln_fused_kernel(const float* __restrict__ x, const float* __restrict__ W,
                       const float* __restrict__ bias, const float* __restrict__ gamma,
                       const float* __restrict__ beta, float* __restrict__ out,
                       int M, int N, int K, float eps, bool vec_io) {
    __shared__ __align__(16) float Xs[FBK][FBM];          // Xs[k][m]
    __shared__ __align__(16) float Ws[FBK][FBN + FPAD];   // Ws[k][n]
    __shared__ float red[FTHREADS / 32][8];               // per-warp partial row sums

    const int tid = threadIdx.x;
    const int warp = tid >> 5, lane = tid & 31;
    const int m0 = blockIdx.x * FBM;
    const int tr = tid >> 7;      // 0..1 : rows tr*8 .. tr*8+7 (warps 4*tr .. 4*tr+3)
    const int tc = tid & 127;     // 0..127 : columns tc*4+{0..3} and 512+tc*4+{0..3}

    // W slice: 1024 rows x 8 k = 2048 float4 -> 8 per thread; x slice: 16 x 8 = 32 float4 -> threads 0..31
    float4 rw[8];
    float4 rx = make_float4(0.f, 0.f, 0.f, 0.f);

    float acc[8][8];
    #pragma unroll
    for (int i = 0; i < 8; ++i)
        #pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

    const int ntiles = (K + FBK - 1) / FBK;
    for (int t = 0; t < ntiles; ++t) {
        const int k0 = t * FBK;
        if (t == 0) {
            #pragma unroll
            for (int p = 0; p < 8; ++p) {
                const int idx = tid + p * FTHREADS;
                rw[p] = load_k4<VEC>(W, idx >> 1, N, k0 + (idx & 1) * 4, K);
            }
            if (tid < 32) rx = load_k4<VEC>(x, m0 + (tid >> 1), M, k0 + (tid & 1) * 4, K);
        }
        // registers -> shared memory (the previous slice was fully consumed: barrier at loop end)
        #pragma unroll
        for (int p = 0; p < 8; ++p) {
            const int idx = tid + p * FTHREADS;
            const int r = idx >> 1, c = (idx & 1) * 4;
            Ws[c + 0][r] = rw[p].x; Ws[c + 1][r] = rw[p].y; Ws[c + 2][r] = rw[p].z; Ws[c + 3][r] = rw[p].w;
        }
        if (tid < 32) {
            const int r = tid >> 1, c = (tid & 1) * 4;
            Xs[c + 0][r] = rx.x; Xs[c + 1][r] = rx.y; Xs[c + 2][r] = rx.z; Xs[c + 3][r] = rx.w;
        }
        __syncthreads();

        // prefetch the next slice into registers while computing on this one
        if (t + 1 < ntiles) {
            const int k1 = k0 + FBK;
            #pragma unroll
            for (int p = 0; p < 8; ++p) {
                const int idx = tid + p * FTHREADS;
                rw[p] = load_k4<VEC>(W, idx >> 1, N, k1 + (idx & 1) * 4, K);
            }
            if (tid < 32) rx = load_k4<VEC>(x, m0 + (tid >> 1), M, k1 + (tid & 1) * 4, K);
        }

        #pragma unroll
        for (int kk = 0; kk < FBK; ++kk) {
            const float4 a0 = *reinterpret_cast<const float4*>(&Xs[kk][tr * 8]);
            const float4 a1 = *reinterpret_cast<const float4*>(&Xs[kk][tr * 8 + 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Ws[kk][tc * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Ws[kk][512 + tc * 4]);
            const float rm[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float rn[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
            #pragma unroll
            for (int i = 0; i < 8; ++i)
                #pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] += rm[i] * rn[j];
        }
        __syncthreads();
    }

    // ---- epilogue: bias, row statistics, normalisation ----
    bool cv[8];
    #pragma unroll
    for (int j = 0; j < 8; ++j) {
        const int col = (j < 4) ? (tc * 4 + j) : (512 + tc * 4 + (j - 4));
        cv[j] = col < N;
        const float bj = cv[j] ? __ldg(bias + col) : 0.0f;
        #pragma unroll
        for (int i = 0; i < 8; ++i) acc[i][j] = cv[j] ? acc[i][j] + bj : 0.0f;
    }

    const float invN = 1.0f / (float)N;
    float mean[8], rstd[8];

    #pragma unroll
    for (int i = 0; i < 8; ++i) {
        float s = 0.0f;
        #pragma unroll
        for (int j = 0; j < 8; ++j) s += acc[i][j];   // masked columns are exactly 0
        s = warp_sum(s);
        if (lane == 0) red[warp][i] = s;
    }
    __syncthreads();
    #pragma unroll
    for (int i = 0; i < 8; ++i)
        mean[i] = (red[4 * tr + 0][i] + red[4 * tr + 1][i] + red[4 * tr + 2][i] + red[4 * tr + 3][i]) * invN;
    __syncthreads();   // everyone has read red before it is reused

    #pragma unroll
    for (int i = 0; i < 8; ++i) {
        float s = 0.0f;
        #pragma unroll
        for (int j = 0; j < 8; ++j) {
            const float d = acc[i][j] - mean[i];
            s += cv[j] ? d * d : 0.0f;
        }
        s = warp_sum(s);
        if (lane == 0) red[warp][i] = s;
    }
    __syncthreads();
    #pragma unroll
    for (int i = 0; i < 8; ++i) {
        const float var = (red[4 * tr + 0][i] + red[4 * tr + 1][i] + red[4 * tr + 2][i] + red[4 * tr + 3][i]) * invN;
        rstd[i] = rsqrtf(var + eps);
    }

    #pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int col = h * 512 + tc * 4;
        float g[4], be[4];
        #pragma unroll
        for (int j = 0; j < 4; ++j) {
            g[j]  = (col + j < N) ? __ldg(gamma + col + j) : 0.0f;
            be[j] = (col + j < N) ? __ldg(beta + col + j) : 0.0f;
        }
        #pragma unroll
        for (int i = 0; i < 8; ++i) {
            const int row = m0 + tr * 8 + i;
            if (row >= M) continue;
            float o[4];
            #pragma unroll
            for (int j = 0; j < 4; ++j) o[j] = (acc[i][h * 4 + j] - mean[i]) * rstd[i] * g[j] + be[j];
            float* orow = out + (size_t)row * N;
            if (vec_io && col + 3 < N) {
                *reinterpret_cast<float4*>(orow + col) = make_float4(o[0], o[1], o[2], o[3]);
            } else {
                #pragma unroll
                for (int j = 0; j < 4; ++j)
                    if (col + j < N) orow[col + j] = o[j];
            }
        }
    }
}

// ---------------- fallback for out_features > 1024 ----------------
#define TILE 32
__global__ void linear_tiled_kernel(const float* __restrict__ x, const float* __restrict__ W,
                                    const float* __restrict__ bias, float* __restrict__ y,
                                    int M, int N, int K) {
    __shared__ float Xs[TILE][TILE + 1];
    __shared__ float Ws[TILE][TILE + 1];
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

__device__ __forceinline__ float block_sum(float v, float* sh) {
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
    v = warp_sum(v);
    __syncthreads();
    if (lane == 0) sh[w] = v;
    __syncthreads();
    if (w == 0) {
        float r = (lane < nw) ? sh[lane] : 0.0f;
        r = warp_sum(r);
        if (lane == 0) sh[32] = r;
    }
    __syncthreads();
    return sh[32];
}

__global__ void layernorm_rows_kernel(float* y, const float* __restrict__ gamma, const float* __restrict__ beta,
                                      int M, int N, float eps) {
    __shared__ float sh[33];
    const int row = blockIdx.x;
    if (row >= M) return;
    float* r = y + (size_t)row * N;
    float s = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) s += r[i];
    const float mean = block_sum(s, sh) / (float)N;
    float sq = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) { const float d = r[i] - mean; sq += d * d; }
    const float rstd = rsqrtf(block_sum(sq, sh) / (float)N + eps);
    for (int i = threadIdx.x; i < N; i += blockDim.x) r[i] = (r[i] - mean) * rstd * gamma[i] + beta[i];
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

    const float* px = xc.data_ptr<float>();
    const float* pw = Wc.data_ptr<float>();
    const float* pbias = bc.data_ptr<float>();
    const float* pg = gc.data_ptr<float>();
    const float* pb = bec.data_ptr<float>();
    float* py = out.data_ptr<float>();

    if (N <= FBN) {
        const bool vec_load = (K % 4 == 0) && ((reinterpret_cast<uintptr_t>(px) & 15) == 0) &&
                              ((reinterpret_cast<uintptr_t>(pw) & 15) == 0);
        const bool vec_io = (N % 4 == 0) && ((reinterpret_cast<uintptr_t>(py) & 15) == 0);
        const int blocks = (M + FBM - 1) / FBM;
        if (vec_load)
            linear_ln_fused_kernel<true><<<blocks, FTHREADS>>>(px, pw, pbias, pg, pb, py, M, N, K, (float)eps, vec_io);
        else
            linear_ln_fused_kernel<false><<<blocks, FTHREADS>>>(px, pw, pbias, pg, pb, py, M, N, K, (float)eps, vec_io);
    } else {
        dim3 block(TILE, TILE);
        dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
        linear_tiled_kernel<<<grid, block>>>(px, pw, pbias, py, M, N, K);
        layernorm_rows_kernel<<<M, 256>>>(py, pg, pb, M, N, (float)eps);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

linear_ln_mod = load_inline(
    name="kbf11_linear_ln_fused_fullrow_tile",
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
