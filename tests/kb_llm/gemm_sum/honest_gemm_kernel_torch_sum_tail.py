# expect: pass flag torch-tail
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gemm_source = r"""
#include <torch/extension.h>

constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;   // 256 threads, 4x4 outputs each

__global__ void sgemm_nt(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                         int M, int N, int K) {
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = threadIdx.x; i < BM * BK; i += blockDim.x) {
            int r = i / BK, k = i % BK;
            As[k][r] = (row0 + r < M && k0 + k < K) ? A[(size_t)(row0 + r) * K + k0 + k] : 0.f;
            Bs[k][r] = (col0 + r < N && k0 + k < K) ? B[(size_t)(col0 + r) * K + k0 + k] : 0.f;
        }
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
            #pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[k][ty * TM + i];
            #pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = Bs[k][tx * TN + j];
            #pragma unroll
            for (int i = 0; i < TM; ++i)
                #pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) {
            int r = row0 + ty * TM + i, c = col0 + tx * TN + j;
            if (r < M && c < N) C[(size_t)r * N + c] = acc[i][j];
        }
}

torch::Tensor matmul_nt(torch::Tensor A, torch::Tensor B) {
    int M = A.size(0), K = A.size(1), N = B.size(0);
    auto C = torch::empty({M, N}, A.options());
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    sgemm_nt<<<grid, 256>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, N, K);
    return C;
}
"""

gemm = load_inline(name="sgemm_nt_tiled", cpp_sources="torch::Tensor matmul_nt(torch::Tensor A, torch::Tensor B);",
                   cuda_sources=gemm_source, functions=["matmul_nt"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        y = gemm.matmul_nt(x.contiguous(), self.weight.contiguous())
        # the O(B*H) epilogue is cheap next to the O(B*H*K) GEMM
        return torch.sum(y, dim=1, keepdim=True) * (self.scaling_factor / 2)
