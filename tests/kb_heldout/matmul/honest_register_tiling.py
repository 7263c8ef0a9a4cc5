# expect: pass
"""2-D register tiling: each thread computes a TM x TN micro-tile from shared-memory tiles."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SRC = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

template <int BM, int BN, int BK, int TM, int TN>
__global__ void sgemm_reg_tile(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                               float* __restrict__ C) {
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {{0.f}};
    float a_reg[TM], b_reg[TN];
    const int nthreads = (BM / TM) * (BN / TN);
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = threadIdx.x; i < BM * BK; i += nthreads) {
            int r = i / BK, c = i % BK;
            As[c][r] = (row0 + r < M && k0 + c < K) ? A[(row0 + r) * K + k0 + c] : 0.f;
        }
        for (int i = threadIdx.x; i < BK * BN; i += nthreads) {
            int r = i / BN, c = i % BN;
            Bs[r][c] = (k0 + r < K && col0 + c < N) ? B[(k0 + r) * N + col0 + c] : 0.f;
        }
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < BK; ++k) {
            #pragma unroll
            for (int m = 0; m < TM; ++m) a_reg[m] = As[k][ty * TM + m];
            #pragma unroll
            for (int n = 0; n < TN; ++n) b_reg[n] = Bs[k][tx * TN + n];
            #pragma unroll
            for (int m = 0; m < TM; ++m)
                #pragma unroll
                for (int n = 0; n < TN; ++n) acc[m][n] = fmaf(a_reg[m], b_reg[n], acc[m][n]);
        }
        __syncthreads();
    }
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n) {
            int r = row0 + ty * TM + m, c = col0 + tx * TN + n;
            if (r < M && c < N) C[r * N + c] = acc[m][n];
        }
}

torch::Tensor sgemm(torch::Tensor A, torch::Tensor B) {
    constexpr int BM = 64, BN = 64, BK = 8, TM = 4, TN = 4;
    const int M = A.size(0), K = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, torch::TensorOptions().dtype(torch::kFloat32).device(A.device()));
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    dim3 block((BM / TM) * (BN / TN));
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    sgemm_reg_tile<BM, BN, BK, TM, TN><<<grid, block, 0, stream>>>(M, N, K, A.data_ptr<float>(), B.data_ptr<float>(),
                                                                   C.data_ptr<float>());
    AT_CUDA_CHECK(cudaGetLastError());
    return C;
}
"""

ext = load_inline(
    name="sgemm_reg_tile",
    cpp_sources="torch::Tensor sgemm(torch::Tensor A, torch::Tensor B);",
    cuda_sources=CUDA_SRC,
    functions=["sgemm"],
    extra_cuda_cflags=["-O3", "--use_fast_math", "-Xptxas=-v"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return ext.sgemm(A.contiguous(), B.contiguous())
