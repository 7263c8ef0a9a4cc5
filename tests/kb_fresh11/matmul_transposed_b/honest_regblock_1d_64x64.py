# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matmul_tb_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Strategy: 1D register blocking. A 64x64 output tile per block of 512 threads, K staged through
// shared memory in slices of 8. Each thread keeps 8 accumulators (8 consecutive rows of one
// column), so one B value read from shared memory is reused 8 times from a register.
// Tiles are stored k-major (As[k][m], Bs[k][n]) with a 4-float pad against store bank conflicts.
#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define NTHREADS ((BM * BN) / TM)   // 512
#define PAD 4

__global__ void __launch_bounds__(NTHREADS)
matmul_tb_1d_kernel(const float* __restrict__ A, const float* __restrict__ B,
                    float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[BK][BM + PAD];
    __shared__ float Bs[BK][BN + PAD];

    const int tid = threadIdx.x;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;

    // loading layout: 64 rows x 8 k, one element per thread, 8 consecutive threads per row
    const int load_r = tid / BK;   // 0..63
    const int load_c = tid % BK;   // 0..7

    // compute layout: thread owns column tcol and rows trow*TM .. trow*TM+7
    const int tcol = tid % BN;     // 0..63
    const int trow = tid / BN;     // 0..7

    float acc[TM];
    #pragma unroll
    for (int i = 0; i < TM; ++i) acc[i] = 0.0f;

    const int a_row = m0 + load_r;
    const int b_row = n0 + load_r;
    for (int k0 = 0; k0 < K; k0 += BK) {
        const int k = k0 + load_c;
        As[load_c][load_r] = (a_row < M && k < K) ? A[(size_t)a_row * K + k] : 0.0f;
        Bs[load_c][load_r] = (b_row < N && k < K) ? B[(size_t)b_row * K + k] : 0.0f;
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            const float b = Bs[kk][tcol];
            #pragma unroll
            for (int i = 0; i < TM; ++i) {
                acc[i] += As[kk][trow * TM + i] * b;
            }
        }
        __syncthreads();
    }

    const int col = n0 + tcol;
    if (col < N) {
        #pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int row = m0 + trow * TM + i;
            if (row < M) C[(size_t)row * N + col] = acc[i];
        }
    }
}

torch::Tensor matmul_tb_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "A and B must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "A and B must be 2D");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.size(1) == B.size(1), "inner dimensions must match");
    auto Ac = A.contiguous();
    auto Bc = B.contiguous();
    const int M = (int)Ac.size(0);
    const int K = (int)Ac.size(1);
    const int N = (int)Bc.size(0);
    auto C = torch::empty({M, N}, Ac.options());
    if (M == 0 || N == 0) return C;

    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    matmul_tb_1d_kernel<<<grid, NTHREADS>>>(Ac.data_ptr<float>(), Bc.data_ptr<float>(),
                                            C.data_ptr<float>(), M, N, K);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return C;
}
"""

matmul_tb_mod = load_inline(
    name="kbf11_matmul_tb_regblock_1d_64x64",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["matmul_tb_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return matmul_tb_mod.matmul_tb_cuda(A, B)
