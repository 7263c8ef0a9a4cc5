# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Two-kernel pipeline.  (1) A (M x K, row-major) is transposed through a padded
# 32x33 shared-memory tile into At (K x M) so that (2) the GEMM kernel can load
# A tiles exactly like B tiles: one aligned float4 per thread per stage, no
# scatter.  The GEMM uses a 128x128x8 block tile with double-buffered shared
# memory and register prefetch of the next stage (one __syncthreads per stage);
# each thread computes an 8x8 outer product split into two 4-row and two
# 4-column halves 64 apart, so its float4 shared-memory reads are conflict-free.
# A scalar-load instance covers shapes whose M or N is not a multiple of 4.
tdb_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 128
#define BN 128
#define BK 8
#define NT 256

__global__ void transpose_kernel(const float* __restrict__ A, float* __restrict__ At, int M, int K) {
    __shared__ float tile[32][33];
    const int k0 = blockIdx.x * 32;
    const int m0 = blockIdx.y * 32;
    const int tx = threadIdx.x, ty = threadIdx.y;     // 32 x 8
#pragma unroll
    for (int j = 0; j < 32; j += 8) {
        int m = m0 + ty + j, k = k0 + tx;
        if (m < M && k < K) tile[ty + j][tx] = A[(long long)m * K + k];
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < 32; j += 8) {
        int k = k0 + ty + j, m = m0 + tx;
        if (k < K && m < M) At[(long long)k * M + m] = tile[tx][ty + j];
    }
}

template <bool VEC>
__device__ __forceinline__ float4 load_tile_vec(const float* __restrict__ src, int rows, int cols,
                                                int r, int c) {
    // element (r, c .. c+3) of a rows x cols row-major matrix, zero outside
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    if (r < rows) {
        const float* p = src + (long long)r * cols + c;
        if (VEC) {
            if (c < cols) v = __ldg(reinterpret_cast<const float4*>(p));   // cols % 4 == 0
        } else {
            if (c + 0 < cols) v.x = __ldg(p + 0);
            if (c + 1 < cols) v.y = __ldg(p + 1);
            if (c + 2 < cols) v.z = __ldg(p + 2);
            if (c + 3 < cols) v.w = __ldg(p + 3);
        }
    }
    return v;
}

template <bool VEC>
__global__ void __launch_bounds__(NT)
sgemm_db_kernel(const float* __restrict__ At, const float* __restrict__ B, float* __restrict__ C,
                int M, int N, int K) {
    __shared__ __align__(16) float As[2][BK][BM];
    __shared__ __align__(16) float Bs[2][BK][BN];

    const int tid = threadIdx.x;
    const int ty = tid / 16;              // rows ty*4..+3 and 64+ty*4..+3
    const int tx = tid % 16;              // cols tx*4..+3 and 64+tx*4..+3
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    const int lr = tid / 32;              // loader: k row within the stage
    const int lc = (tid % 32) * 4;        // loader: column (m or n) within the tile

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

    const int nk = (K + BK - 1) / BK;
    float4 ra = load_tile_vec<VEC>(At, K, M, lr, m0 + lc);
    float4 rb = load_tile_vec<VEC>(B, K, N, lr, n0 + lc);
    *reinterpret_cast<float4*>(&As[0][lr][lc]) = ra;
    *reinterpret_cast<float4*>(&Bs[0][lr][lc]) = rb;
    __syncthreads();

    for (int kt = 0; kt < nk; ++kt) {
        const int cur = kt & 1;
        const bool more = (kt + 1 < nk);
        if (more) {
            int gk = (kt + 1) * BK + lr;
            ra = load_tile_vec<VEC>(At, K, M, gk, m0 + lc);
            rb = load_tile_vec<VEC>(B, K, N, gk, n0 + lc);
        }
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float4 a0 = *reinterpret_cast<const float4*>(&As[cur][k][ty * 4]);
            float4 a1 = *reinterpret_cast<const float4*>(&As[cur][k][64 + ty * 4]);
            float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][k][tx * 4]);
            float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][k][64 + tx * 4]);
            float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        if (more) {
            // buffer cur^1 was last read in iteration kt-1, which ended with a barrier
            *reinterpret_cast<float4*>(&As[cur ^ 1][lr][lc]) = ra;
            *reinterpret_cast<float4*>(&Bs[cur ^ 1][lr][lc]) = rb;
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int r = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
        if (r >= M) continue;
        float* crow = C + (long long)r * N;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int c = n0 + h * 64 + tx * 4;
            if (VEC) {
                if (c < N)
                    *reinterpret_cast<float4*>(crow + c) =
                        make_float4(acc[i][h * 4 + 0], acc[i][h * 4 + 1], acc[i][h * 4 + 2], acc[i][h * 4 + 3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    if (c + j < N) crow[c + j] = acc[i][h * 4 + j];
            }
        }
    }
}

torch::Tensor matmul_tdb(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "CUDA tensors required");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && A.size(1) == B.size(0), "shape mismatch");
    A = A.contiguous();
    B = B.contiguous();
    const int M = A.size(0), K = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, A.options());
    if (M == 0 || N == 0) return C;
    auto At = torch::empty({K, M}, A.options());

    if (K > 0) {
        dim3 tb(32, 8);
        dim3 tg((K + 31) / 32, (M + 31) / 32);
        TORCH_CHECK(tg.y <= 65535, "M too large");
        transpose_kernel<<<tg, tb>>>(A.data_ptr<float>(), At.data_ptr<float>(), M, K);
    }

    const float* atp = At.data_ptr<float>();
    const float* bp = B.data_ptr<float>();
    float* cp = C.data_ptr<float>();
    const bool vec = (M % 4 == 0) && (N % 4 == 0) &&
                     ((reinterpret_cast<uintptr_t>(atp) | reinterpret_cast<uintptr_t>(bp) |
                       reinterpret_cast<uintptr_t>(cp)) & 15) == 0;
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    TORCH_CHECK(grid.y <= 65535, "M too large");
    if (vec) sgemm_db_kernel<true><<<grid, NT>>>(atp, bp, cp, M, N, K);
    else     sgemm_db_kernel<false><<<grid, NT>>>(atp, bp, cp, M, N, K);
    return C;
}
"""

tdb_cpp = "torch::Tensor matmul_tdb(torch::Tensor A, torch::Tensor B);"

tdb = load_inline(
    name="matmul_small_k_transpose_double_buffered",
    cpp_sources=tdb_cpp,
    cuda_sources=tdb_cuda,
    functions=["matmul_tdb"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return tdb.matmul_tdb(A, B)
