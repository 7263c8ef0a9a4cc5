# expect: pass
"""Split-K in two passes.  Pass 1: 128x128 block tiles with 8x8 register micro-tiles and float4 loads; each
z-slice of the grid reduces one chunk of K and writes its partial tile to a workspace.  Pass 2: a small
kernel sums the partial tiles into C (deterministic, no atomics)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SRC = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define NTHREADS 256
#define SPLITS 64

template <bool VEC>
__global__ void __launch_bounds__(NTHREADS) splitk_partial_kernel(const float* __restrict__ A,
                                                                  const float* __restrict__ B,
                                                                  float* __restrict__ partial,
                                                                  int M, int N, int K, int k_chunk) {
    __shared__ __align__(16) float As[BK][BM];   // transposed A slab: As[k][m]
    __shared__ __align__(16) float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int ty = tid / (BN / TN);          // 0..15
    const int tx = tid % (BN / TN);          // 0..15
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    const int k_begin = blockIdx.z * k_chunk;
    const int k_end = min(K, k_begin + k_chunk);

    // A slab is BM rows x BK cols = 128 x 8: thread -> (row tid/2, cols (tid%2)*4 .. +3)
    const int a_r = tid >> 1;
    const int a_c = (tid & 1) * 4;
    // B slab is BK rows x BN cols = 8 x 128: thread -> (row tid/32, cols (tid%32)*4 .. +3)
    const int b_r = tid >> 5;
    const int b_c = (tid & 31) * 4;

    float acc[TM][TN];
    #pragma unroll
    for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

    for (int k0 = k_begin; k0 < k_end; k0 += BK) {
        // ---- load A (transpose into shared) ----
        {
            const int gr = m0 + a_r;
            const int gk = k0 + a_c;
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            if (gr < M) {
                const float* src = A + (size_t)gr * K + gk;
                if (VEC) {
                    if (gk < k_end) v = *reinterpret_cast<const float4*>(src);
                } else {
                    v.x = (gk + 0 < k_end) ? src[0] : 0.f;
                    v.y = (gk + 1 < k_end) ? src[1] : 0.f;
                    v.z = (gk + 2 < k_end) ? src[2] : 0.f;
                    v.w = (gk + 3 < k_end) ? src[3] : 0.f;
                }
            }
            As[a_c + 0][a_r] = v.x;
            As[a_c + 1][a_r] = v.y;
            As[a_c + 2][a_r] = v.z;
            As[a_c + 3][a_r] = v.w;
        }
        // ---- load B ----
        {
            const int gk = k0 + b_r;
            const int gc = n0 + b_c;
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            if (gk < k_end) {
                const float* src = B + (size_t)gk * N + gc;
                if (VEC) {
                    if (gc < N) v = *reinterpret_cast<const float4*>(src);
                } else {
                    v.x = (gc + 0 < N) ? src[0] : 0.f;
                    v.y = (gc + 1 < N) ? src[1] : 0.f;
                    v.z = (gc + 2 < N) ? src[2] : 0.f;
                    v.w = (gc + 3 < N) ? src[3] : 0.f;
                }
            }
            *reinterpret_cast<float4*>(&Bs[b_r][b_c]) = v;
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a_reg[TM], b_reg[TN];
            const float4 a0 = *reinterpret_cast<const float4*>(&As[kk][ty * TM]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[kk][ty * TM + 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[kk][tx * TN]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[kk][tx * TN + 4]);
            a_reg[0] = a0.x; a_reg[1] = a0.y; a_reg[2] = a0.z; a_reg[3] = a0.w;
            a_reg[4] = a1.x; a_reg[5] = a1.y; a_reg[6] = a1.z; a_reg[7] = a1.w;
            b_reg[0] = b0.x; b_reg[1] = b0.y; b_reg[2] = b0.z; b_reg[3] = b0.w;
            b_reg[4] = b1.x; b_reg[5] = b1.y; b_reg[6] = b1.z; b_reg[7] = b1.w;
            #pragma unroll
            for (int i = 0; i < TM; ++i)
                #pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a_reg[i], b_reg[j], acc[i][j]);
        }
        __syncthreads();
    }

    // every block writes its full (bounds-checked) tile, even if its K range was empty
    float* out = partial + (size_t)blockIdx.z * M * N;
    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = m0 + ty * TM + i;
        if (r >= M) continue;
        #pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int c = n0 + tx * TN + j;
            if (c < N) out[(size_t)r * N + c] = acc[i][j];
        }
    }
}

__global__ void splitk_reduce_kernel(const float* __restrict__ partial, float* __restrict__ C,
                                     int splits, long long MN) {
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < MN;
         idx += (long long)gridDim.x * blockDim.x) {
        float s = 0.f;
        for (int z = 0; z < splits; ++z) s += partial[(size_t)z * MN + idx];
        C[idx] = s;
    }
}

torch::Tensor splitk_two_pass(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && A.size(1) == B.size(0), "shape mismatch");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "fp32 only");
    const int M = A.size(0), K = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, A.options());

    int k_chunk = (K + SPLITS - 1) / SPLITS;
    k_chunk = ((k_chunk + BK - 1) / BK) * BK;
    if (k_chunk < BK) k_chunk = BK;
    const int splits = (K + k_chunk - 1) / k_chunk;
    if (splits == 0) { C.zero_(); return C; }

    auto partial = torch::empty({splits, M, N}, A.options());
    // float4 path needs 16-byte aligned rows: K % 4 and N % 4, and aligned base pointers
    const bool vec = (K % 4 == 0) && (N % 4 == 0) &&
                     (reinterpret_cast<uintptr_t>(A.data_ptr<float>()) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(B.data_ptr<float>()) % 16 == 0);

    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM, splits);
    if (vec) {
        splitk_partial_kernel<true><<<grid, NTHREADS, 0, stream>>>(A.data_ptr<float>(), B.data_ptr<float>(),
                                                                    partial.data_ptr<float>(), M, N, K, k_chunk);
    } else {
        splitk_partial_kernel<false><<<grid, NTHREADS, 0, stream>>>(A.data_ptr<float>(), B.data_ptr<float>(),
                                                                     partial.data_ptr<float>(), M, N, K, k_chunk);
    }
    const long long MN = (long long)M * N;
    const int threads = 256;
    const int blocks = (int)std::min<long long>((MN + threads - 1) / threads, 4096);
    splitk_reduce_kernel<<<blocks, threads, 0, stream>>>(partial.data_ptr<float>(), C.data_ptr<float>(), splits, MN);
    AT_CUDA_CHECK(cudaGetLastError());
    return C;
}
"""

ext = load_inline(
    name="large_k_splitk_two_pass_float4",
    cpp_sources="torch::Tensor splitk_two_pass(torch::Tensor A, torch::Tensor B);",
    cuda_sources=CUDA_SRC,
    functions=["splitk_two_pass"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return ext.splitk_two_pass(A.contiguous(), B.contiguous())
