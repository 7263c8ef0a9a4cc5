# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: double-buffered shared memory + register prefetch SGEMM. 128x128 tile per block of
// 256 threads, BK = 8. While the block computes on one shared-memory buffer, each thread already
// fetches the next K-slice of A and B from global memory into registers and then stores it into
// the other buffer, so only one barrier per K-step is needed. Each thread owns an 8x8 result split
// into four 4x4 quadrants (rows ty*4 and 64+ty*4, columns tx*4 and 64+tx*4), which makes the
// float4 fragment reads from shared memory conflict-free/broadcast.
// Requires K % 4 == 0, N % 4 == 0 and 16-byte aligned pointers; otherwise a scalar tiled kernel
// is used.

#define BM 128
#define BN 128
#define BK 8
#define NTHREADS 256

__device__ __forceinline__ float4 load_a4(const float* __restrict__ A, int gr, int gk, int M, int K) {
    if (gr < M && gk < K) return __ldg(reinterpret_cast<const float4*>(A + (size_t)gr * K + gk));
    return make_float4(0.f, 0.f, 0.f, 0.f);
}
__device__ __forceinline__ float4 load_b4(const float* __restrict__ B, int gk, int gc, int K, int N) {
    if (gk < K && gc < N) return __ldg(reinterpret_cast<const float4*>(B + (size_t)gk * N + gc));
    return make_float4(0.f, 0.f, 0.f, 0.f);
}

__global__ void __launch_bounds__(NTHREADS)
matmul4d_dbuf_kernel(const float* __restrict__ A, const float* __restrict__ B,
                     float* __restrict__ C, int M, int N, int K) {
    __shared__ __align__(16) float As[2][BK][BM];   // transposed A tile: As[buf][k][m]
    __shared__ __align__(16) float Bs[2][BK][BN];   // Bs[buf][k][n]

    const int tid = threadIdx.x;
    const int tx = tid % 16;
    const int ty = tid / 16;
    const int bm = blockIdx.x * BM;
    const int bn = blockIdx.y * BN;

    const int aRow = tid >> 1;          // 0..127
    const int aCol = (tid & 1) * 4;     // 0 or 4
    const int bRow = tid >> 5;          // 0..7
    const int bCol = (tid & 31) * 4;    // 0..124

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

    const int numTiles = (K + BK - 1) / BK;

    // prologue: tile 0 -> buffer 0
    float4 pa = load_a4(A, bm + aRow, aCol, M, K);
    float4 pb = load_b4(B, bRow, bn + bCol, K, N);
    As[0][aCol + 0][aRow] = pa.x;
    As[0][aCol + 1][aRow] = pa.y;
    As[0][aCol + 2][aRow] = pa.z;
    As[0][aCol + 3][aRow] = pa.w;
    *reinterpret_cast<float4*>(&Bs[0][bRow][bCol]) = pb;
    __syncthreads();

    for (int t = 0; t < numTiles; ++t) {
        const int cur = t & 1;
        const bool has_next = (t + 1) < numTiles;
        if (has_next) {
            const int k0 = (t + 1) * BK;
            pa = load_a4(A, bm + aRow, k0 + aCol, M, K);
            pb = load_b4(B, k0 + bRow, bn + bCol, K, N);
        }

#pragma unroll
        for (int d = 0; d < BK; ++d) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][d][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][d][64 + ty * 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][d][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][d][64 + tx * 4]);
            const float ra[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float rb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
        }

        if (has_next) {
            const int nxt = cur ^ 1;
            // buffer nxt was last read in iteration t-1, which ended with a barrier
            As[nxt][aCol + 0][aRow] = pa.x;
            As[nxt][aCol + 1][aRow] = pa.y;
            As[nxt][aCol + 2][aRow] = pa.z;
            As[nxt][aCol + 3][aRow] = pa.w;
            *reinterpret_cast<float4*>(&Bs[nxt][bRow][bCol]) = pb;
        }
        __syncthreads();
    }

    // write back: quadrant (qi, qj) covers rows qi*64 + ty*4 + [0,4), cols qj*64 + tx*4 + [0,4)
#pragma unroll
    for (int qi = 0; qi < 2; ++qi) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int gr = bm + qi * 64 + ty * 4 + i;
            if (gr >= M) continue;
#pragma unroll
            for (int qj = 0; qj < 2; ++qj) {
                const int gc = bn + qj * 64 + tx * 4;
                if (gc < N) {
                    const int ai = qi * 4 + i;
                    const int aj = qj * 4;
                    *reinterpret_cast<float4*>(C + (size_t)gr * N + gc) =
                        make_float4(acc[ai][aj], acc[ai][aj + 1], acc[ai][aj + 2], acc[ai][aj + 3]);
                }
            }
        }
    }
}

// scalar fallback for shapes/alignments the vectorised kernel does not support
#define TS 16
__global__ void matmul4d_tile16_fallback(const float* __restrict__ A, const float* __restrict__ B,
                                         float* __restrict__ C, int M, int N, int K) {
    __shared__ float Ts_a[TS][TS];
    __shared__ float Ts_b[TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.x * TS + ty;
    const int col = blockIdx.y * TS + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TS) {
        Ts_a[ty][tx] = (row < M && t + tx < K) ? A[(size_t)row * K + t + tx] : 0.0f;
        Ts_b[ty][tx] = (t + ty < K && col < N) ? B[(size_t)(t + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TS; ++kk) acc += Ts_a[ty][kk] * Ts_b[kk][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}

torch::Tensor my_op_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.dim() == 4 && B.dim() == 2, "A must be 4-D, B must be 2-D");
    TORCH_CHECK(A.size(3) == B.size(0), "inner dimensions must match");
    auto Ac = A.contiguous();
    auto Bc = B.contiguous();
    int64_t K = Ac.size(3);
    int64_t N = Bc.size(1);
    int64_t M = Ac.size(0) * Ac.size(1) * Ac.size(2);
    auto out = torch::empty({Ac.size(0), Ac.size(1), Ac.size(2), N}, Ac.options());
    if (M == 0 || N == 0) return out;
    TORCH_CHECK(M < INT_MAX - BM && N < INT_MAX - BN && K < INT_MAX - BK, "sizes too large");
    const float* pa = Ac.data_ptr<float>();
    const float* pb = Bc.data_ptr<float>();
    float* pc = out.data_ptr<float>();
    const bool vec_ok = (K % 4 == 0) && (N % 4 == 0) &&
                        (reinterpret_cast<uintptr_t>(pa) % 16 == 0) &&
                        (reinterpret_cast<uintptr_t>(pb) % 16 == 0) &&
                        (reinterpret_cast<uintptr_t>(pc) % 16 == 0);
    if (vec_ok) {
        dim3 grid((unsigned)((M + BM - 1) / BM), (unsigned)((N + BN - 1) / BN));
        TORCH_CHECK(grid.y <= 65535, "N too large for this kernel");
        matmul4d_dbuf_kernel<<<grid, NTHREADS>>>(pa, pb, pc, (int)M, (int)N, (int)K);
    } else {
        dim3 grid((unsigned)((M + TS - 1) / TS), (unsigned)((N + TS - 1) / TS));
        TORCH_CHECK(grid.y <= 65535, "N too large for this kernel");
        matmul4d_tile16_fallback<<<grid, dim3(TS, TS)>>>(pa, pb, pc, (int)M, (int)N, (int)K);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_matmul_4d_dbuf_prefetch_128",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(A, B)
