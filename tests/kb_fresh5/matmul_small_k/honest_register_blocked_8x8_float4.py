# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Register-blocked SGEMM: 128x128 block tile, 256 threads, each thread owns an
# 8x8 accumulator tile.  Tiles of A (stored transposed, As[k][m]) and B are
# staged 16 deep with float4 global loads; the inner loop reads float4 vectors
# out of shared memory (8+8 loads per 64 FMAs) and C is written with float4
# stores.  A scalar template instance is used when K or N is not a multiple of
# 4 or a pointer is not 16-byte aligned.
rb_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 128
#define BN 128
#define BK 16
#define TM 8
#define TN 8
#define NT 256

template <bool VEC>
__global__ void __launch_bounds__(NT)
sgemm_rb_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                int M, int N, int K) {
    __shared__ __align__(16) float As[BK][BM];
    __shared__ __align__(16) float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int tr = tid / 16;        // row group: rows tr*8 .. tr*8+7
    const int tc = tid % 16;        // col group: cols tc*8 .. tc*8+7
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        if (VEC) {
#pragma unroll
            for (int s = 0; s < 2; ++s) {
                int f = tid + s * NT;          // 512 float4 per A tile
                int r = f >> 2;
                int c4 = f & 3;
                int gr = m0 + r, gk = k0 + c4 * 4;
                float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
                if (gr < M && gk < K) v = __ldg(reinterpret_cast<const float4*>(A + (long long)gr * K + gk));
                As[c4 * 4 + 0][r] = v.x;
                As[c4 * 4 + 1][r] = v.y;
                As[c4 * 4 + 2][r] = v.z;
                As[c4 * 4 + 3][r] = v.w;
            }
#pragma unroll
            for (int s = 0; s < 2; ++s) {
                int f = tid + s * NT;          // 512 float4 per B tile
                int r = f >> 5;
                int c4 = f & 31;
                int gk = k0 + r, gc = n0 + c4 * 4;
                float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
                if (gk < K && gc < N) v = __ldg(reinterpret_cast<const float4*>(B + (long long)gk * N + gc));
                *reinterpret_cast<float4*>(&Bs[r][c4 * 4]) = v;
            }
        } else {
            for (int i = tid; i < BM * BK; i += NT) {
                int r = i / BK, c = i % BK;
                int gr = m0 + r, gk = k0 + c;
                As[c][r] = (gr < M && gk < K) ? A[(long long)gr * K + gk] : 0.0f;
            }
            for (int i = tid; i < BK * BN; i += NT) {
                int r = i / BN, c = i % BN;
                int gk = k0 + r, gc = n0 + c;
                Bs[r][c] = (gk < K && gc < N) ? B[(long long)gk * N + gc] : 0.0f;
            }
        }
        __syncthreads();

#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
            float4 t0 = *reinterpret_cast<const float4*>(&As[k][tr * TM]);
            float4 t1 = *reinterpret_cast<const float4*>(&As[k][tr * TM + 4]);
            float4 u0 = *reinterpret_cast<const float4*>(&Bs[k][tc * TN]);
            float4 u1 = *reinterpret_cast<const float4*>(&Bs[k][tc * TN + 4]);
            a[0] = t0.x; a[1] = t0.y; a[2] = t0.z; a[3] = t0.w;
            a[4] = t1.x; a[5] = t1.y; a[6] = t1.z; a[7] = t1.w;
            b[0] = u0.x; b[1] = u0.y; b[2] = u0.z; b[3] = u0.w;
            b[4] = u1.x; b[5] = u1.y; b[6] = u1.z; b[7] = u1.w;
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

    const int c = n0 + tc * TN;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        int r = m0 + tr * TM + i;
        if (r >= M) continue;
        float* crow = C + (long long)r * N;
        if (VEC) {
            // N % 4 == 0: each float4 group is either fully in range or fully out
            if (c < N) *reinterpret_cast<float4*>(crow + c) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
            if (c + 4 < N) *reinterpret_cast<float4*>(crow + c + 4) = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
        } else {
#pragma unroll
            for (int j = 0; j < TN; ++j)
                if (c + j < N) crow[c + j] = acc[i][j];
        }
    }
}

torch::Tensor matmul_rb(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "CUDA tensors required");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && A.size(1) == B.size(0), "shape mismatch");
    A = A.contiguous();
    B = B.contiguous();
    const int M = A.size(0), K = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, A.options());
    if (M == 0 || N == 0) return C;
    const float* ap = A.data_ptr<float>();
    const float* bp = B.data_ptr<float>();
    float* cp = C.data_ptr<float>();
    bool vec = (K % 4 == 0) && (N % 4 == 0) &&
               ((reinterpret_cast<uintptr_t>(ap) | reinterpret_cast<uintptr_t>(bp) |
                 reinterpret_cast<uintptr_t>(cp)) & 15) == 0;
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    TORCH_CHECK(grid.y <= 65535, "M too large");
    if (vec) sgemm_rb_kernel<true><<<grid, NT>>>(ap, bp, cp, M, N, K);
    else     sgemm_rb_kernel<false><<<grid, NT>>>(ap, bp, cp, M, N, K);
    return C;
}
"""

rb_cpp = "torch::Tensor matmul_rb(torch::Tensor A, torch::Tensor B);"

rb = load_inline(
    name="matmul_small_k_register_blocked_8x8_float4",
    cpp_sources=rb_cpp,
    cuda_sources=rb_cuda,
    functions=["matmul_rb"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return rb.matmul_rb(A, B)
