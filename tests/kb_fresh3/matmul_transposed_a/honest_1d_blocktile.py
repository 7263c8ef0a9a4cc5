# expect: pass
"""1-D block tiling: a 64x64 output tile per block, each of 512 threads accumulates a column strip of 8 outputs."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SRC = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

template <int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__(512) at_b_blocktile_1d(const float* __restrict__ A, const float* __restrict__ B,
                                                         float* __restrict__ C, int K, int M, int N) {
    static_assert((BM * BN) / TM == 512, "block size must match __launch_bounds__");
    // A is K x M (we need A^T), B is K x N.  Both slabs are read row by row along k.
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];

    constexpr int NT = (BM * BN) / TM;
    const int tid = threadIdx.x;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    const int thread_col = tid % BN;          // 0..BN-1
    const int thread_row = tid / BN;          // 0..BM/TM-1

    float acc[TM];
    #pragma unroll
    for (int i = 0; i < TM; ++i) acc[i] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = tid; i < BK * BM; i += NT) {
            const int r = i / BM, c = i % BM;
            As[r][c] = (k0 + r < K && m0 + c < M) ? A[(size_t)(k0 + r) * M + m0 + c] : 0.0f;
        }
        for (int i = tid; i < BK * BN; i += NT) {
            const int r = i / BN, c = i % BN;
            Bs[r][c] = (k0 + r < K && n0 + c < N) ? B[(size_t)(k0 + r) * N + n0 + c] : 0.0f;
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            const float b = Bs[kk][thread_col];
            #pragma unroll
            for (int i = 0; i < TM; ++i) acc[i] += As[kk][thread_row * TM + i] * b;
        }
        __syncthreads();
    }

    const int col = n0 + thread_col;
    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = m0 + thread_row * TM + i;
        if (row < M && col < N) C[(size_t)row * N + col] = acc[i];
    }
}

torch::Tensor at_b_1d(torch::Tensor A, torch::Tensor B) {
    constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
    TORCH_CHECK(A.size(0) == B.size(0), "shape mismatch");
    const int K = A.size(0), M = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, A.options());
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    dim3 block((BM * BN) / TM);
    at_b_blocktile_1d<BM, BN, BK, TM><<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), K, M, N);
    AT_CUDA_CHECK(cudaGetLastError());
    return C;
}
"""

ext = load_inline(
    name="at_b_blocktile_1d",
    cpp_sources="torch::Tensor at_b_1d(torch::Tensor A, torch::Tensor B);",
    cuda_sources=CUDA_SRC,
    functions=["at_b_1d"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return ext.at_b_1d(A.contiguous(), B.contiguous())
