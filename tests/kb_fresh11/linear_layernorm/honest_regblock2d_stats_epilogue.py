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

// Strategy: GEMM with a LayerNorm-statistics epilogue, then one light elementwise pass.
// (1) 128x128x8 tiled SGEMM, 256 threads each owning an 8x8 register tile (float4 global loads
//     along K, k-major shared memory, float4 fragment reads). The epilogue adds the bias, stores y,
//     reduces each row's partial sum and sum of squares across the 16 threads sharing that row with
//     warp shuffles, and adds them to a per-row [sum, sumsq] buffer with atomics.
// (2) A grid-stride float4 kernel turns the statistics into mean / rstd and applies the affine
//     normalisation in place.
#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define NTHREADS 256
#define PAD 4

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

template <bool VEC>
__global__ void __launch_bounds__(NTHREADS)
linear_stats_kernel(const float* __restrict__ x, const float* __restrict__ W, const float* __restrict__ bias,
                    float* __restrict__ y, float* __restrict__ stats, int M, int N, int K, bool vec_store) {
    __shared__ __align__(16) float Xs[BK][BM + PAD];
    __shared__ __align__(16) float Ws[BK][BN + PAD];

    const int tid = threadIdx.x;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const int lr = tid >> 1, lc = (tid & 1) * 4;     // 128 rows x 8 k, one float4 per thread
    const int ty = tid >> 4, tx = tid & 15;          // 16 x 16 threads, 8x8 outputs each

    float acc[TM][TN];
    #pragma unroll
    for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        const float4 a = load_k4<VEC>(x, m0 + lr, M, k0 + lc, K);
        const float4 b = load_k4<VEC>(W, n0 + lr, N, k0 + lc, K);
        Xs[lc + 0][lr] = a.x; Xs[lc + 1][lr] = a.y; Xs[lc + 2][lr] = a.z; Xs[lc + 3][lr] = a.w;
        Ws[lc + 0][lr] = b.x; Ws[lc + 1][lr] = b.y; Ws[lc + 2][lr] = b.z; Ws[lc + 3][lr] = b.w;
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            const float4 a0 = *reinterpret_cast<const float4*>(&Xs[kk][ty * TM]);
            const float4 a1 = *reinterpret_cast<const float4*>(&Xs[kk][ty * TM + 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Ws[kk][tx * TN]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Ws[kk][tx * TN + 4]);
            const float rm[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float rn[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
            #pragma unroll
            for (int i = 0; i < TM; ++i)
                #pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += rm[i] * rn[j];
        }
        __syncthreads();
    }

    // epilogue: bias, store, per-row partial statistics
    const int col0 = n0 + tx * TN;
    float bv[TN];
    bool cv[TN];
    #pragma unroll
    for (int j = 0; j < TN; ++j) {
        cv[j] = (col0 + j) < N;
        bv[j] = cv[j] ? __ldg(bias + col0 + j) : 0.0f;
    }
    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = m0 + ty * TM + i;
        float s = 0.0f, ss = 0.0f;
        #pragma unroll
        for (int j = 0; j < TN; ++j) {
            const float v = acc[i][j] + bv[j];
            acc[i][j] = v;
            if (cv[j]) { s += v; ss += v * v; }
        }
        // the 16 threads with the same ty are lanes 0-15 or 16-31 of one warp
        #pragma unroll
        for (int off = 8; off > 0; off >>= 1) {
            s  += __shfl_xor_sync(0xffffffffu, s, off);
            ss += __shfl_xor_sync(0xffffffffu, ss, off);
        }
        if (row < M) {
            if (tx == 0) {
                atomicAdd(stats + 2 * (size_t)row, s);
                atomicAdd(stats + 2 * (size_t)row + 1, ss);
            }
            float* yrow = y + (size_t)row * N;
            #pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int col = col0 + h * 4;
                if (vec_store && col + 3 < N) {
                    *reinterpret_cast<float4*>(yrow + col) =
                        make_float4(acc[i][h * 4 + 0], acc[i][h * 4 + 1], acc[i][h * 4 + 2], acc[i][h * 4 + 3]);
                } else {
                    #pragma unroll
                    for (int j = 0; j < 4; ++j)
                        if (col + j < N) yrow[col + j] = acc[i][h * 4 + j];
                }
            }
        }
    }
}

template <bool VEC>
__global__ void layernorm_apply_kernel(float* __restrict__ y, const float* __restrict__ stats,
                                       const float* __restrict__ gamma, const float* __restrict__ beta,
                                       int M, int N, float eps) {
    const float invN = 1.0f / (float)N;
    const long long stride = (long long)gridDim.x * blockDim.x;
    if (VEC) {
        const long long total4 = (long long)M * N / 4;   // N % 4 == 0: a float4 never crosses rows
        float4* y4 = reinterpret_cast<float4*>(y);
        for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total4; i += stride) {
            const long long e = i * 4;
            const int row = (int)(e / N);
            const int col = (int)(e - (long long)row * N);
            const float mean = __ldg(stats + 2 * (size_t)row) * invN;
            const float var = fmaxf(__ldg(stats + 2 * (size_t)row + 1) * invN - mean * mean, 0.0f);
            const float rstd = rsqrtf(var + eps);
            const float4 g = __ldg(reinterpret_cast<const float4*>(gamma + col));
            const float4 b = __ldg(reinterpret_cast<const float4*>(beta + col));
            float4 v = y4[i];
            v.x = (v.x - mean) * rstd * g.x + b.x;
            v.y = (v.y - mean) * rstd * g.y + b.y;
            v.z = (v.z - mean) * rstd * g.z + b.z;
            v.w = (v.w - mean) * rstd * g.w + b.w;
            y4[i] = v;
        }
    } else {
        const long long total = (long long)M * N;
        for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride) {
            const int row = (int)(e / N);
            const int col = (int)(e - (long long)row * N);
            const float mean = stats[2 * (size_t)row] * invN;
            const float var = fmaxf(stats[2 * (size_t)row + 1] * invN - mean * mean, 0.0f);
            y[e] = (y[e] - mean) * rsqrtf(var + eps) * gamma[col] + beta[col];
        }
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
    auto stats = torch::zeros({M, 2}, xc.options());

    const float* px = xc.data_ptr<float>();
    const float* pw = Wc.data_ptr<float>();
    float* py = out.data_ptr<float>();
    const float* pg = gc.data_ptr<float>();
    const float* pb = bec.data_ptr<float>();
    const bool vec_load = (K % 4 == 0) && ((reinterpret_cast<uintptr_t>(px) & 15) == 0) &&
                          ((reinterpret_cast<uintptr_t>(pw) & 15) == 0);
    const bool vec_io = (N % 4 == 0) && ((reinterpret_cast<uintptr_t>(py) & 15) == 0) &&
                        ((reinterpret_cast<uintptr_t>(pg) & 15) == 0) &&
                        ((reinterpret_cast<uintptr_t>(pb) & 15) == 0);

    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    if (vec_load)
        linear_stats_kernel<true><<<grid, NTHREADS>>>(px, pw, bc.data_ptr<float>(), py, stats.data_ptr<float>(),
                                                      M, N, K, vec_io);
    else
        linear_stats_kernel<false><<<grid, NTHREADS>>>(px, pw, bc.data_ptr<float>(), py, stats.data_ptr<float>(),
                                                       M, N, K, vec_io);

    int sms = 0, dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 132;
    const int threads = 256;
    const long long work = vec_io ? (long long)M * N / 4 : (long long)M * N;
    long long blocks = (work + threads - 1) / threads;
    const long long cap = (long long)sms * 8;
    if (blocks > cap) blocks = cap;
    if (blocks < 1) blocks = 1;
    if (vec_io)
        layernorm_apply_kernel<true><<<(int)blocks, threads>>>(py, stats.data_ptr<float>(), pg, pb, M, N, (float)eps);
    else
        layernorm_apply_kernel<false><<<(int)blocks, threads>>>(py, stats.data_ptr<float>(), pg, pb, M, N, (float)eps);

    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

linear_ln_mod = load_inline(
    name="kbf11_linear_ln_regblock2d_stats_epilogue",
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
