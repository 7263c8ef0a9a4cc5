# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# SGEMM-style 128x128x8 block tile with 8x8 outputs per thread (two 4-wide strips in
# each direction so smem reads are float4 and conflict-free).  Global loads are
# float4 when K % 4 == 0 and x/W are 16-byte aligned, otherwise a scalar-guarded
# instantiation is used.  Epilogue: bias + exact GELU, float4 stores when possible.
# Softmax: one block per row keeps the whole row in registers (2 float4 per thread,
# rows up to 2048), so y is read once and written once; other shapes use a looped
# fallback.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
#include <cstdint>

#define G_BM 128
#define G_BN 128
#define G_BK 8
#define G_THREADS 256
#define SMX_THREADS 256
#define SMX_WARPS (SMX_THREADS / 32)
#define SMX_VPT 2
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float gelu_exact(float v) {
    return 0.5f * v * (1.0f + erff(v * 0.70710678118654752440f));
}

template <bool VEC>
__global__ void __launch_bounds__(G_THREADS)
linear_gelu_sgemm128_kernel(const float* __restrict__ x, const float* __restrict__ W,
                            const float* __restrict__ bias, float* __restrict__ y,
                            int M, int K, int N, bool vec_out) {
    __shared__ __align__(16) float As[G_BK][G_BM + 4];   // As[k][m]
    __shared__ __align__(16) float Bs[G_BK][G_BN + 4];   // Bs[k][n] = W[n][k]
    const int tid = threadIdx.x;
    const int tx = tid & 15;
    const int ty = tid >> 4;
    const int m0 = blockIdx.y * G_BM;
    const int n0 = blockIdx.x * G_BN;

    // loader mapping: each thread stages 4 consecutive k of one row of x and of W
    const int lr = tid >> 1;          // 0..127
    const int lk = (tid & 1) * 4;     // 0 or 4
    const int gm_ld = m0 + lr;
    const int gn_ld = n0 + lr;

    float acc[8][8];
    #pragma unroll
    for (int i = 0; i < 8; ++i)
        #pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += G_BK) {
        const int gk = k0 + lk;
        float a[4], bb[4];
        if (VEC) {
            // K % 4 == 0 and gk % 4 == 0, so gk < K implies gk + 3 < K
            float4 va = make_float4(0.f, 0.f, 0.f, 0.f);
            float4 vb = make_float4(0.f, 0.f, 0.f, 0.f);
            if (gm_ld < M && gk < K) va = __ldg(reinterpret_cast<const float4*>(x + (size_t)gm_ld * K + gk));
            if (gn_ld < N && gk < K) vb = __ldg(reinterpret_cast<const float4*>(W + (size_t)gn_ld * K + gk));
            a[0] = va.x; a[1] = va.y; a[2] = va.z; a[3] = va.w;
            bb[0] = vb.x; bb[1] = vb.y; bb[2] = vb.z; bb[3] = vb.w;
        } else {
            #pragma unroll
            for (int i = 0; i < 4; ++i) {
                a[i]  = (gm_ld < M && gk + i < K) ? x[(size_t)gm_ld * K + gk + i] : 0.0f;
                bb[i] = (gn_ld < N && gk + i < K) ? W[(size_t)gn_ld * K + gk + i] : 0.0f;
            }
        }
        #pragma unroll
        for (int i = 0; i < 4; ++i) {
            As[lk + i][lr] = a[i];
            Bs[lk + i][lr] = bb[i];
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < G_BK; ++kk) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[kk][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[kk][64 + ty * 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[kk][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[kk][64 + tx * 4]);
            const float ar[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float br[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
            #pragma unroll
            for (int i = 0; i < 8; ++i)
                #pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(ar[i], br[j], acc[i][j]);
        }
        __syncthreads();
    }

    // epilogue: row i -> m0 + (i<4 ? ty*4+i : 64+ty*4+i-4); column strip jh -> n0 + jh*64 + tx*4
    #pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int gm = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
        if (gm >= M) continue;
        float* yrow = y + (size_t)gm * N;
        #pragma unroll
        for (int jh = 0; jh < 2; ++jh) {
            const int gn = n0 + jh * 64 + tx * 4;
            float o[4];
            #pragma unroll
            for (int q = 0; q < 4; ++q)
                o[q] = (gn + q < N) ? gelu_exact(acc[i][jh * 4 + q] + bias[gn + q]) : 0.0f;
            if (vec_out && gn + 3 < N) {
                *reinterpret_cast<float4*>(yrow + gn) = make_float4(o[0], o[1], o[2], o[3]);
            } else {
                #pragma unroll
                for (int q = 0; q < 4; ++q)
                    if (gn + q < N) yrow[gn + q] = o[q];
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
__device__ __forceinline__ float block_max(float v, float* sh) {
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    v = warp_max(v);
    if (lane == 0) sh[w] = v;
    __syncthreads();
    v = (lane < SMX_WARPS) ? sh[lane] : -INFINITY;
    return warp_max(v);
}
__device__ __forceinline__ float block_sum(float v, float* sh) {
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) sh[w] = v;
    __syncthreads();
    v = (lane < SMX_WARPS) ? sh[lane] : 0.0f;
    return warp_sum(v);
}

// Row cached in registers; requires N % 4 == 0, N <= SMX_THREADS*4*SMX_VPT, aligned y.
__global__ void __launch_bounds__(SMX_THREADS)
softmax_regcache_kernel(float* __restrict__ y, int N) {
    __shared__ float s_max[SMX_WARPS];
    __shared__ float s_sum[SMX_WARPS];
    const int t = threadIdx.x;
    float* r = y + (size_t)blockIdx.x * N;
    float4 v[SMX_VPT];
    float m = -INFINITY;
    #pragma unroll
    for (int i = 0; i < SMX_VPT; ++i) {
        const int c = (i * SMX_THREADS + t) * 4;
        if (c < N) {
            v[i] = *reinterpret_cast<const float4*>(r + c);
            m = fmaxf(m, fmaxf(fmaxf(v[i].x, v[i].y), fmaxf(v[i].z, v[i].w)));
        }
    }
    m = block_max(m, s_max);
    float s = 0.0f;
    #pragma unroll
    for (int i = 0; i < SMX_VPT; ++i) {
        const int c = (i * SMX_THREADS + t) * 4;
        if (c < N) {
            v[i].x = expf(v[i].x - m); v[i].y = expf(v[i].y - m);
            v[i].z = expf(v[i].z - m); v[i].w = expf(v[i].w - m);
            s += (v[i].x + v[i].y) + (v[i].z + v[i].w);
        }
    }
    s = block_sum(s, s_sum);
    const float inv = 1.0f / s;
    #pragma unroll
    for (int i = 0; i < SMX_VPT; ++i) {
        const int c = (i * SMX_THREADS + t) * 4;
        if (c < N)
            *reinterpret_cast<float4*>(r + c) =
                make_float4(v[i].x * inv, v[i].y * inv, v[i].z * inv, v[i].w * inv);
    }
}

// Generic fallback: three looped passes.
__global__ void __launch_bounds__(SMX_THREADS)
softmax_loop_kernel(float* __restrict__ y, int N) {
    __shared__ float s_max[SMX_WARPS];
    __shared__ float s_sum[SMX_WARPS];
    const int t = threadIdx.x;
    float* r = y + (size_t)blockIdx.x * N;
    float m = -INFINITY;
    for (int j = t; j < N; j += SMX_THREADS) m = fmaxf(m, r[j]);
    m = block_max(m, s_max);
    float s = 0.0f;
    for (int j = t; j < N; j += SMX_THREADS) s += expf(r[j] - m);
    s = block_sum(s, s_sum);
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
    TORCH_CHECK((M + G_BM - 1) / G_BM <= 65535, "batch too large for gridDim.y");

    const float* xp = xc.data_ptr<float>();
    const float* wp = Wc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const bool vec_in = (K % 4 == 0) &&
                        (reinterpret_cast<uintptr_t>(xp) % 16 == 0) &&
                        (reinterpret_cast<uintptr_t>(wp) % 16 == 0);
    const bool vec_out = (N % 4 == 0) && (reinterpret_cast<uintptr_t>(yp) % 16 == 0);

    dim3 grid((N + G_BN - 1) / G_BN, (M + G_BM - 1) / G_BM);
    if (vec_in)
        linear_gelu_sgemm128_kernel<true><<<grid, G_THREADS>>>(xp, wp, bc.data_ptr<float>(), yp, M, K, N, vec_out);
    else
        linear_gelu_sgemm128_kernel<false><<<grid, G_THREADS>>>(xp, wp, bc.data_ptr<float>(), yp, M, K, N, vec_out);

    if (vec_out && N <= SMX_THREADS * 4 * SMX_VPT)
        softmax_regcache_kernel<<<M, SMX_THREADS>>>(yp, N);
    else
        softmax_loop_kernel<<<M, SMX_THREADS>>>(yp, N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_source = "torch::Tensor linear_gelu_softmax_cuda(torch::Tensor x, torch::Tensor W, torch::Tensor b);"

_ext = load_inline(
    name="linear_gelu_softmax_float4_128x128_regcache",
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
