# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: warp-per-row-group, no shared memory. Each warp owns RW=4 consecutive rows of the
// (b*i*j) x l matrix A. Lanes load 32 consecutive A values of each row (coalesced), then the
// values are broadcast with __shfl_sync while every lane streams coalesced rows of B (kept hot
// in L2 / read-only cache) and accumulates 4 rows x 16 columns in registers.

#define WARPS_PER_BLOCK 8
#define RW 4     // rows per warp
#define CPL 16   // columns per lane per pass (a warp pass covers 32*CPL = 512 columns)

__global__ void matmul4d_warp_rows_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                          float* __restrict__ C, int M, int N, int K) {
    const unsigned FULL = 0xffffffffu;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int row0 = (blockIdx.x * WARPS_PER_BLOCK + warp) * RW;
    if (row0 >= M) return;  // warp-uniform exit, no block barriers are used

    for (int n0 = 0; n0 < N; n0 += 32 * CPL) {
        float acc[RW][CPL];
#pragma unroll
        for (int r = 0; r < RW; ++r)
#pragma unroll
            for (int c = 0; c < CPL; ++c) acc[r][c] = 0.0f;

        for (int kb = 0; kb < K; kb += 32) {
            const int ka = kb + lane;
            float a[RW];
#pragma unroll
            for (int r = 0; r < RW; ++r) {
                const int row = row0 + r;
                a[r] = (row < M && ka < K) ? __ldg(&A[(size_t)row * K + ka]) : 0.0f;
            }
            const int kn = min(32, K - kb);  // uniform across the warp
#pragma unroll 4
            for (int kk = 0; kk < kn; ++kk) {
                float av[RW];
#pragma unroll
                for (int r = 0; r < RW; ++r) av[r] = __shfl_sync(FULL, a[r], kk);
                const float* brow = B + (size_t)(kb + kk) * N;
#pragma unroll
                for (int c = 0; c < CPL; ++c) {
                    const int col = n0 + c * 32 + lane;
                    const float bv = (col < N) ? __ldg(&brow[col]) : 0.0f;
#pragma unroll
                    for (int r = 0; r < RW; ++r) acc[r][c] = fmaf(av[r], bv, acc[r][c]);
                }
            }
        }

#pragma unroll
        for (int r = 0; r < RW; ++r) {
            const int row = row0 + r;
            if (row < M) {
#pragma unroll
                for (int c = 0; c < CPL; ++c) {
                    const int col = n0 + c * 32 + lane;
                    if (col < N) C[(size_t)row * N + col] = acc[r][c];
                }
            }
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
    TORCH_CHECK(M < INT_MAX - 64 && N < INT_MAX - 1024 && K < INT_MAX - 64, "sizes too large");
    const int rows_per_block = WARPS_PER_BLOCK * RW;
    int64_t blocks = (M + rows_per_block - 1) / rows_per_block;
    matmul4d_warp_rows_kernel<<<(unsigned)blocks, WARPS_PER_BLOCK * 32>>>(
        Ac.data_ptr<float>(), Bc.data_ptr<float>(), out.data_ptr<float>(), (int)M, (int)N, (int)K);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_matmul_4d_warp_rows_shfl",
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
