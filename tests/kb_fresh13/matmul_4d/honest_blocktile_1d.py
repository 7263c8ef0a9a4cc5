# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: 1-D register blocking. A 64x64 output tile per block (512 threads), K staged in
// steps of 8 through shared memory; each thread keeps 8 outputs of one column in registers so
// every B value read from shared memory is reused 8 times.

#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define NTHREADS ((BM * BN) / TM)   // 512

__global__ void __launch_bounds__(NTHREADS)
matmul4d_blocktile1d_kernel(const float* __restrict__ A, const float* __restrict__ B,
                            float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    const int tid = threadIdx.x;
    const int bm = blockIdx.x * BM;
    const int bn = blockIdx.y * BN;

    const int threadCol = tid % BN;   // 0..63
    const int threadRow = tid / BN;   // 0..7, owns rows threadRow*TM .. +TM-1

    const int innerColA = tid % BK;   // 0..7
    const int innerRowA = tid / BK;   // 0..63
    const int innerColB = tid % BN;   // 0..63
    const int innerRowB = tid / BN;   // 0..7

    float acc[TM];
#pragma unroll
    for (int r = 0; r < TM; ++r) acc[r] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        {
            const int gr = bm + innerRowA;
            const int gk = k0 + innerColA;
            As[innerRowA * BK + innerColA] = (gr < M && gk < K) ? A[(size_t)gr * K + gk] : 0.0f;
        }
        {
            const int gk = k0 + innerRowB;
            const int gc = bn + innerColB;
            Bs[innerRowB * BN + innerColB] = (gk < K && gc < N) ? B[(size_t)gk * N + gc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int d = 0; d < BK; ++d) {
            const float b = Bs[d * BN + threadCol];
#pragma unroll
            for (int r = 0; r < TM; ++r) {
                acc[r] = fmaf(As[(threadRow * TM + r) * BK + d], b, acc[r]);
            }
        }
        __syncthreads();
    }

    const int gc = bn + threadCol;
    if (gc < N) {
#pragma unroll
        for (int r = 0; r < TM; ++r) {
            const int gr = bm + threadRow * TM + r;
            if (gr < M) C[(size_t)gr * N + gc] = acc[r];
        }
    }
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
    dim3 grid((unsigned)((M + BM - 1) / BM), (unsigned)((N + BN - 1) / BN));
    TORCH_CHECK(grid.y <= 65535, "N too large for this kernel");
    matmul4d_blocktile1d_kernel<<<grid, NTHREADS>>>(Ac.data_ptr<float>(), Bc.data_ptr<float>(),
                                                    out.data_ptr<float>(), (int)M, (int)N, (int)K);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_matmul_4d_blocktile_1d",
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
