# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Tensor-core GEMM through inline PTX mma.sync.m16n8k8 (TF32 inputs, FP32 accumulate):
# 64x64x32 block tile, 4 warps each owning a 32x32 sub-tile (2 x 4 mma tiles),
# float4 global->shared staging (scalar fallback when K % 4 != 0 or misaligned),
# rows padded to 36 floats so fragment loads are bank-conflict free.  The epilogue
# fuses bias + exact GELU.  Softmax: one warp per row with an online (max, sum)
# pass using float4 loads, a butterfly merge of the per-lane states, then one
# normalising pass.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
#include <cstdint>

#define T_BM 64
#define T_BN 64
#define T_BK 32
#define T_LDS (T_BK + 4)
#define T_THREADS 128
#define SW_WARPS 8
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float gelu_exact(float v) {
    return 0.5f * v * (1.0f + erff(v * 0.70710678118654752440f));
}

__device__ __forceinline__ unsigned f32_to_tf32(float f) {
    unsigned r;
    asm volatile("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(f));
    return r;
}

__device__ __forceinline__ void mma_tf32_16x8x8(float* c, const unsigned* a, const unsigned* b) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <bool VEC>
__global__ void __launch_bounds__(T_THREADS)
linear_gelu_tf32_mma_kernel(const float* __restrict__ x, const float* __restrict__ W,
                            const float* __restrict__ bias, float* __restrict__ y,
                            int M, int K, int N) {
    __shared__ __align__(16) float As[T_BM][T_LDS];   // As[m][k]
    __shared__ __align__(16) float Bs[T_BN][T_LDS];   // Bs[n][k] = W[n][k]  (B = W^T, "col" layout)
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int wm = (warp >> 1) * 32;
    const int wn = (warp & 1) * 32;
    const int g = lane >> 2;     // groupID
    const int t4 = lane & 3;     // threadID_in_group
    const int m0 = blockIdx.y * T_BM;
    const int n0 = blockIdx.x * T_BN;

    float acc[2][4][4];
    #pragma unroll
    for (int mi = 0; mi < 2; ++mi)
        #pragma unroll
        for (int ni = 0; ni < 4; ++ni)
            #pragma unroll
            for (int q = 0; q < 4; ++q) acc[mi][ni][q] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += T_BK) {
        // stage 64x32 of x and 64x32 of W: 512 float4 each, 4 per thread
        #pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int idx = tid + i * T_THREADS;   // 0..511
            const int r = idx >> 3;                // 0..63
            const int c = (idx & 7) * 4;           // 0..28
            const int gk = k0 + c;
            const int gm = m0 + r;
            const int gn = n0 + r;
            float4 va = make_float4(0.f, 0.f, 0.f, 0.f);
            float4 vb = make_float4(0.f, 0.f, 0.f, 0.f);
            if (VEC) {   // K % 4 == 0: gk < K implies gk + 3 < K
                if (gm < M && gk < K) va = __ldg(reinterpret_cast<const float4*>(x + (size_t)gm * K + gk));
                if (gn < N && gk < K) vb = __ldg(reinterpret_cast<const float4*>(W + (size_t)gn * K + gk));
            } else {
                if (gm < M) {
                    const float* p = x + (size_t)gm * K;
                    if (gk     < K) va.x = p[gk];
                    if (gk + 1 < K) va.y = p[gk + 1];
                    if (gk + 2 < K) va.z = p[gk + 2];
                    if (gk + 3 < K) va.w = p[gk + 3];
                }
                if (gn < N) {
                    const float* p = W + (size_t)gn * K;
                    if (gk     < K) vb.x = p[gk];
                    if (gk + 1 < K) vb.y = p[gk + 1];
                    if (gk + 2 < K) vb.z = p[gk + 2];
                    if (gk + 3 < K) vb.w = p[gk + 3];
                }
            }
            *reinterpret_cast<float4*>(&As[r][c]) = va;
            *reinterpret_cast<float4*>(&Bs[r][c]) = vb;
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < T_BK; kk += 8) {
            unsigned af[2][4];
            unsigned bf[4][2];
            #pragma unroll
            for (int mi = 0; mi < 2; ++mi) {
                const int rb = wm + mi * 16;
                af[mi][0] = f32_to_tf32(As[rb + g][kk + t4]);
                af[mi][1] = f32_to_tf32(As[rb + g + 8][kk + t4]);
                af[mi][2] = f32_to_tf32(As[rb + g][kk + t4 + 4]);
                af[mi][3] = f32_to_tf32(As[rb + g + 8][kk + t4 + 4]);
            }
            #pragma unroll
            for (int ni = 0; ni < 4; ++ni) {
                const int cb = wn + ni * 8;
                bf[ni][0] = f32_to_tf32(Bs[cb + g][kk + t4]);
                bf[ni][1] = f32_to_tf32(Bs[cb + g][kk + t4 + 4]);
            }
            #pragma unroll
            for (int mi = 0; mi < 2; ++mi)
                #pragma unroll
                for (int ni = 0; ni < 4; ++ni) mma_tf32_16x8x8(acc[mi][ni], af[mi], bf[ni]);
        }
        __syncthreads();
    }

    // accumulator layout: c0,c1 -> (row g, cols 2*t4, 2*t4+1); c2,c3 -> row g+8
    #pragma unroll
    for (int mi = 0; mi < 2; ++mi) {
        #pragma unroll
        for (int ni = 0; ni < 4; ++ni) {
            const int col = n0 + wn + ni * 8 + 2 * t4;
            #pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int row = m0 + wm + mi * 16 + g + h * 8;
                if (row >= M) continue;
                float* yrow = y + (size_t)row * N;
                if (col < N)     yrow[col]     = gelu_exact(acc[mi][ni][2 * h]     + bias[col]);
                if (col + 1 < N) yrow[col + 1] = gelu_exact(acc[mi][ni][2 * h + 1] + bias[col + 1]);
            }
        }
    }
}

__device__ __forceinline__ void online_update(float v, float& m, float& s) {
    if (v > m) {
        s = s * expf(m - v) + 1.0f;   // m == -inf initially: s = 0 * 0 + 1
        m = v;
    } else {
        s += expf(v - m);
    }
}

// one warp per row
__global__ void __launch_bounds__(SW_WARPS * 32)
softmax_warp_online_kernel(float* __restrict__ y, int M, int N, bool vec) {
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * SW_WARPS + (threadIdx.x >> 5);
    if (row >= M) return;   // warp-uniform
    float* r = y + (size_t)row * N;

    float m = -INFINITY, s = 0.0f;
    if (vec) {
        const float4* r4 = reinterpret_cast<const float4*>(r);
        for (int i = lane; i < (N >> 2); i += 32) {
            const float4 q = r4[i];
            online_update(q.x, m, s); online_update(q.y, m, s);
            online_update(q.z, m, s); online_update(q.w, m, s);
        }
    } else {
        for (int j = lane; j < N; j += 32) online_update(r[j], m, s);
    }
    // butterfly merge of (m, s): every lane ends with the row's max and sum
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        const float mo = __shfl_xor_sync(FULL_MASK, m, off);
        const float so = __shfl_xor_sync(FULL_MASK, s, off);
        const float nm = fmaxf(m, mo);
        if (nm != -INFINITY) {
            s = s * expf(m - nm) + so * expf(mo - nm);
            m = nm;
        }
    }
    const float inv = 1.0f / s;
    if (vec) {
        float4* r4 = reinterpret_cast<float4*>(r);
        for (int i = lane; i < (N >> 2); i += 32) {
            float4 q = r4[i];
            q.x = expf(q.x - m) * inv; q.y = expf(q.y - m) * inv;
            q.z = expf(q.z - m) * inv; q.w = expf(q.w - m) * inv;
            r4[i] = q;
        }
    } else {
        for (int j = lane; j < N; j += 32) r[j] = expf(r[j] - m) * inv;
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
    TORCH_CHECK((M + T_BM - 1) / T_BM <= 65535, "batch too large for gridDim.y");
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    const float* xp = xc.data_ptr<float>();
    const float* wp = Wc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const bool vec_in = (K % 4 == 0) &&
                        (reinterpret_cast<uintptr_t>(xp) % 16 == 0) &&
                        (reinterpret_cast<uintptr_t>(wp) % 16 == 0);
    dim3 grid((N + T_BN - 1) / T_BN, (M + T_BM - 1) / T_BM);
    if (vec_in)
        linear_gelu_tf32_mma_kernel<true><<<grid, T_THREADS, 0, stream>>>(xp, wp, bc.data_ptr<float>(), yp, M, K, N);
    else
        linear_gelu_tf32_mma_kernel<false><<<grid, T_THREADS, 0, stream>>>(xp, wp, bc.data_ptr<float>(), yp, M, K, N);

    const bool vec_out = (N % 4 == 0) && (reinterpret_cast<uintptr_t>(yp) % 16 == 0);
    softmax_warp_online_kernel<<<(M + SW_WARPS - 1) / SW_WARPS, SW_WARPS * 32, 0, stream>>>(yp, M, N, vec_out);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_source = ("torch::Tensor linear_gelu_softmax_cuda(torch::Tensor x, torch::Tensor W, torch::Tensor b, "
              "int64_t stream_ptr);")

_ext = load_inline(
    name="linear_gelu_softmax_tf32_mma_warp_online",
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
