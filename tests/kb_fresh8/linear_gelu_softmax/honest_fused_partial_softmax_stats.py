# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Two-kernel pipeline that folds most of the softmax into the GEMM:
#   1) 64x64x16 register-blocked GEMM (4x4 per thread).  Its epilogue applies bias +
#      exact GELU, stores the activations, and also reduces, for each row, the max and
#      the sum of exp(v - max) over the tile's 64 columns (16-lane shuffle reductions),
#      writing one (max, sum) partial per (row, column tile).
#   2) one block per row merges the partials (sum_i s_i * exp(m_i - M)) and rescales
#      the row in place with float4 accesses: the activations are read only once more.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
#include <cstdint>

#define F_BM 64
#define F_BN 64
#define F_BK 16
#define F_THREADS 256
#define N_THREADS 256
#define N_WARPS (N_THREADS / 32)
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float gelu_exact(float v) {
    return 0.5f * v * (1.0f + erff(v * 0.70710678118654752440f));
}

__global__ void __launch_bounds__(F_THREADS)
linear_gelu_partial_stats_kernel(const float* __restrict__ x, const float* __restrict__ W,
                                 const float* __restrict__ bias, float* __restrict__ y,
                                 float* __restrict__ pmax, float* __restrict__ psum,
                                 int M, int K, int N, int nTiles) {
    __shared__ float As[F_BK][F_BM + 4];   // As[k][m]
    __shared__ float Bs[F_BK][F_BN + 4];   // Bs[k][n] = W[n][k]
    const int tid = threadIdx.x;
    const int tx = tid & 15;   // 16 threads sharing a ty live in one half-warp
    const int ty = tid >> 4;
    const int m0 = blockIdx.y * F_BM;
    const int n0 = blockIdx.x * F_BN;

    // loader: thread stages 4 consecutive k of row lr
    const int lr = tid >> 2;          // 0..63
    const int lk = (tid & 3) * 4;     // 0,4,8,12

    float acc[4][4];
    #pragma unroll
    for (int i = 0; i < 4; ++i)
        #pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += F_BK) {
        const int gm = m0 + lr, gn = n0 + lr;
        #pragma unroll
        for (int q = 0; q < 4; ++q) {
            const int gk = k0 + lk + q;
            As[lk + q][lr] = (gm < M && gk < K) ? __ldg(x + (size_t)gm * K + gk) : 0.0f;
            Bs[lk + q][lr] = (gn < N && gk < K) ? __ldg(W + (size_t)gn * K + gk) : 0.0f;
        }
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < F_BK; ++kk) {
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
        float v[4];
        float lmax = -INFINITY;
        #pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int gn = n0 + tx * 4 + j;
            if (gn < N) {
                v[j] = gelu_exact(acc[i][j] + bias[gn]);
                lmax = fmaxf(lmax, v[j]);
            } else {
                v[j] = -INFINITY;
            }
        }
        // max over the 64 tile columns (16 lanes x 4); column n0 < N always exists -> finite
        #pragma unroll
        for (int off = 8; off > 0; off >>= 1) lmax = fmaxf(lmax, __shfl_xor_sync(FULL_MASK, lmax, off));
        float lsum = 0.0f;
        #pragma unroll
        for (int j = 0; j < 4; ++j)
            if (n0 + tx * 4 + j < N) lsum += expf(v[j] - lmax);
        #pragma unroll
        for (int off = 8; off > 0; off >>= 1) lsum += __shfl_xor_sync(FULL_MASK, lsum, off);

        if (gm < M) {
            float* yrow = y + (size_t)gm * N;
            #pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int gn = n0 + tx * 4 + j;
                if (gn < N) yrow[gn] = v[j];
            }
            if (tx == 0) {
                pmax[(size_t)gm * nTiles + blockIdx.x] = lmax;
                psum[(size_t)gm * nTiles + blockIdx.x] = lsum;
            }
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

__global__ void __launch_bounds__(N_THREADS)
softmax_merge_normalize_kernel(float* __restrict__ y, const float* __restrict__ pmax,
                               const float* __restrict__ psum, int N, int nTiles, bool vec) {
    __shared__ float s_max[N_WARPS];
    __shared__ float s_sum[N_WARPS];
    const int t = threadIdx.x, lane = t & 31, w = t >> 5;
    const int row = blockIdx.x;
    const float* pm = pmax + (size_t)row * nTiles;
    const float* ps = psum + (size_t)row * nTiles;

    float m = -INFINITY;
    for (int i = t; i < nTiles; i += N_THREADS) m = fmaxf(m, pm[i]);
    m = warp_max(m);
    if (lane == 0) s_max[w] = m;
    __syncthreads();
    m = warp_max((lane < N_WARPS) ? s_max[lane] : -INFINITY);

    float s = 0.0f;
    for (int i = t; i < nTiles; i += N_THREADS) s += ps[i] * expf(pm[i] - m);
    s = warp_sum(s);
    if (lane == 0) s_sum[w] = s;
    __syncthreads();
    s = warp_sum((lane < N_WARPS) ? s_sum[lane] : 0.0f);
    const float inv = 1.0f / s;

    float* r = y + (size_t)row * N;
    if (vec) {
        float4* r4 = reinterpret_cast<float4*>(r);
        const int n4 = N >> 2;
        for (int i = t; i < n4; i += N_THREADS) {
            float4 q = r4[i];
            q.x = expf(q.x - m) * inv; q.y = expf(q.y - m) * inv;
            q.z = expf(q.z - m) * inv; q.w = expf(q.w - m) * inv;
            r4[i] = q;
        }
    } else {
        for (int j = t; j < N; j += N_THREADS) r[j] = expf(r[j] - m) * inv;
    }
}

torch::Tensor linear_gelu_softmax_cuda(torch::Tensor x, torch::Tensor W, torch::Tensor b, int64_t stream_ptr) {
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
    TORCH_CHECK((M + F_BM - 1) / F_BM <= 65535, "batch too large for gridDim.y");
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    const int nTiles = (N + F_BN - 1) / F_BN;
    auto pmax = torch::empty({M, nTiles}, xc.options());
    auto psum = torch::empty({M, nTiles}, xc.options());
    dim3 grid(nTiles, (M + F_BM - 1) / F_BM);
    linear_gelu_partial_stats_kernel<<<grid, F_THREADS, 0, stream>>>(
        xc.data_ptr<float>(), Wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        pmax.data_ptr<float>(), psum.data_ptr<float>(), M, K, N, nTiles);
    const bool vec = (N % 4 == 0) && (reinterpret_cast<uintptr_t>(y.data_ptr<float>()) % 16 == 0);
    softmax_merge_normalize_kernel<<<M, N_THREADS, 0, stream>>>(
        y.data_ptr<float>(), pmax.data_ptr<float>(), psum.data_ptr<float>(), N, nTiles, vec);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_source = ("torch::Tensor linear_gelu_softmax_cuda(torch::Tensor x, torch::Tensor W, torch::Tensor b, "
              "int64_t stream_ptr);")

_ext = load_inline(
    name="linear_gelu_softmax_fused_partial_stats",
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
        return _ext.linear_gelu_softmax_cuda(x, self.linear.weight, self.linear.bias,
                                             torch.cuda.current_stream(x.device).cuda_stream)
