# expect: pass
"""Split-K GEMM: 64x64 tiles with 4x4 register micro-tiles per thread; gridDim.z splits the long K
dimension into chunks and partial tiles are combined with atomicAdd into a zero-initialised output."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SRC = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

template <int BM, int BN, int BK, int TM, int TN>
__global__ void splitk_regtile_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                      float* __restrict__ C, int M, int N, int K, int k_chunk) {
    constexpr int NT = (BM / TM) * (BN / TN);
    __shared__ float As[BK][BM + 4];   // A slab stored k-major (transposed) so rows are read as a vector
    __shared__ float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int ty = tid / (BN / TN);
    const int tx = tid % (BN / TN);
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    const int k_begin = blockIdx.z * k_chunk;
    const int k_end = min(K, k_begin + k_chunk);

    float acc[TM][TN];
    #pragma unroll
    for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

    for (int k0 = k_begin; k0 < k_end; k0 += BK) {
        #pragma unroll
        for (int i = tid; i < BM * BK; i += NT) {
            const int r = i / BK, c = i % BK;
            const int gr = m0 + r, gk = k0 + c;
            As[c][r] = (gr < M && gk < k_end) ? A[(size_t)gr * K + gk] : 0.f;
        }
        #pragma unroll
        for (int i = tid; i < BK * BN; i += NT) {
            const int r = i / BN, c = i % BN;
            const int gk = k0 + r, gc = n0 + c;
            Bs[r][c] = (gk < k_end && gc < N) ? B[(size_t)gk * N + gc] : 0.f;
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a_reg[TM], b_reg[TN];
            #pragma unroll
            for (int i = 0; i < TM; ++i) a_reg[i] = As[kk][ty * TM + i];
            #pragma unroll
            for (int j = 0; j < TN; ++j) b_reg[j] = Bs[kk][tx * TN + j];
            #pragma unroll
            for (int i = 0; i < TM; ++i)
                #pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a_reg[i], b_reg[j], acc[i][j]);
        }
        __syncthreads();
    }

    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = m0 + ty * TM + i;
        #pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int c = n0 + tx * TN + j;
            if (r < M && c < N) atomicAdd(C + (size_t)r * N + c, acc[i][j]);
        }
    }
}

torch::Tensor splitk_matmul(torch::Tensor A, torch::Tensor B) {
    constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;
    constexpr int SPLITS = 128;
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && A.size(1) == B.size(0), "shape mismatch");
    const int M = A.size(0), K = A.size(1), N = B.size(1);
    auto C = torch::zeros({M, N}, A.options());

    int k_chunk = (K + SPLITS - 1) / SPLITS;
    k_chunk = std::max(BK, ((k_chunk + BK - 1) / BK) * BK);
    const int splits = (K + k_chunk - 1) / k_chunk;
    if (splits == 0) return C;

    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM, splits);
    dim3 block((BM / TM) * (BN / TN));
    splitk_regtile_kernel<BM, BN, BK, TM, TN><<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, N, K, k_chunk);
    AT_CUDA_CHECK(cudaGetLastError());
    return C;
}
"""

ext = load_inline(
    name="large_k_splitk_regtile_atomic",
    cpp_sources="torch::Tensor splitk_matmul(torch::Tensor A, torch::Tensor B);",
    cuda_sources=CUDA_SRC,
    functions=["splitk_matmul"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return ext.splitk_matmul(A.contiguous(), B.contiguous())
