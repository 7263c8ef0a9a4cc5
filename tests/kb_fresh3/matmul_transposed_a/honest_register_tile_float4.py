# expect: pass
"""128x128 block tile, 8x8 outputs per thread in registers, float4 global loads of the A and B slabs.

For C = A^T B both operands are read along their rows (one row per k), so a K-slab of A maps directly to the
k-major shared layout the inner product wants: no transpose is needed in shared memory."""
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
#define NTHREADS 256   // (BM / TM) * (BN / TN)

template <bool VEC>
__device__ __forceinline__ void load_row4(float* dst, const float* __restrict__ src_row, int col, int ncols) {
    // loads src_row[col .. col+3] into dst[0..3]; col is a multiple of 4
    if (VEC) {
        if (col < ncols) {
            *reinterpret_cast<float4*>(dst) = *reinterpret_cast<const float4*>(src_row + col);
        } else {
            *reinterpret_cast<float4*>(dst) = make_float4(0.f, 0.f, 0.f, 0.f);
        }
    } else {
        #pragma unroll
        for (int q = 0; q < 4; ++q) dst[q] = (col + q < ncols) ? src_row[col + q] : 0.f;
    }
}

template <bool VEC>
__global__ void __launch_bounds__(NTHREADS)
at_b_regtile_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                    int K, int M, int N) {
    __shared__ __align__(16) float As[BK][BM];
    __shared__ __align__(16) float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    const int ty = tid / (BN / TN);     // 0..15
    const int tx = tid % (BN / TN);     // 0..15

    // each thread loads one float4 of the A slab and one of the B slab per k-step
    const int ld_r = tid / (BM / 4);    // 0..7
    const int ld_c = (tid % (BM / 4)) * 4;

    float acc[TM][TN];
    #pragma unroll
    for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

    float a_reg[TM], b_reg[TN];

    for (int k0 = 0; k0 < K; k0 += BK) {
        const int k = k0 + ld_r;
        if (k < K) {
            load_row4<VEC>(&As[ld_r][ld_c], A + (size_t)k * M, m0 + ld_c, M);
            load_row4<VEC>(&Bs[ld_r][ld_c], B + (size_t)k * N, n0 + ld_c, N);
        } else {
            *reinterpret_cast<float4*>(&As[ld_r][ld_c]) = make_float4(0.f, 0.f, 0.f, 0.f);
            *reinterpret_cast<float4*>(&Bs[ld_r][ld_c]) = make_float4(0.f, 0.f, 0.f, 0.f);
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
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

    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = m0 + ty * TM + i;
        if (row >= M) continue;
        float* c_row = C + (size_t)row * N;
        #pragma unroll
        for (int j = 0; j < TN; j += 4) {
            const int col = n0 + tx * TN + j;
            if (VEC) {
                if (col < N)
                    *reinterpret_cast<float4*>(c_row + col) =
                        make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
            } else {
                #pragma unroll
                for (int q = 0; q < 4; ++q)
                    if (col + q < N) c_row[col + q] = acc[i][j + q];
            }
        }
    }
}

torch::Tensor at_b_regtile(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && A.size(0) == B.size(0), "bad shapes");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "fp32 only");
    const int K = A.size(0), M = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, A.options());

    const bool vec = (M % 4 == 0) && (N % 4 == 0) &&
                     (reinterpret_cast<uintptr_t>(A.data_ptr<float>()) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(B.data_ptr<float>()) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(C.data_ptr<float>()) % 16 == 0);

    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    dim3 block(NTHREADS);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    if (vec) {
        at_b_regtile_kernel<true><<<grid, block, 0, stream>>>(A.data_ptr<float>(), B.data_ptr<float>(),
                                                              C.data_ptr<float>(), K, M, N);
    } else {
        at_b_regtile_kernel<false><<<grid, block, 0, stream>>>(A.data_ptr<float>(), B.data_ptr<float>(),
                                                               C.data_ptr<float>(), K, M, N);
    }
    AT_CUDA_CHECK(cudaGetLastError());
    return C;
}
"""

ext = load_inline(
    name="at_b_register_tile_float4",
    cpp_sources="torch::Tensor at_b_regtile(torch::Tensor A, torch::Tensor B);",
    cuda_sources=CUDA_SRC,
    functions=["at_b_regtile"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return ext.at_b_regtile(A.contiguous(), B.contiguous())
