# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Register-blocked GEMM: a 256-thread block computes a 64x64 tile of C, each thread a 4x4
# micro-tile (rows ty+16i, cols tx+16j).  K is walked in steps of 16; A's tile is stored
# k-major (transposed, padded row of 65 to avoid bank conflicts) and B's tile row-major, so
# the inner loop reads 4 A values and 4 B values from shared memory for 16 FMAs.  Edges are
# zero-padded, so any N works.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define NT 256

__global__ void __launch_bounds__(NT)
symmetric_matmul_reg4x4_kernel(const float* __restrict__ A,
                               const float* __restrict__ B,
                               float* __restrict__ C, int N) {
    __shared__ float As[BK][BM + 1];
    __shared__ float Bs[BK][BN];
    const int t = threadIdx.x;
    const int tx = t % 16, ty = t / 16;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;

    float acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < N; k0 += BK) {
#pragma unroll
        for (int r = 0; r < (BM * BK) / NT; ++r) {
            const int e = t + r * NT;
            const int m = e / BK, k = e % BK;          // A tile: 64 rows x 16 k
            const int gm = m0 + m, gk = k0 + k;
            As[k][m] = (gm < N && gk < N) ? __ldg(A + (size_t)gm * N + gk) : 0.0f;
        }
#pragma unroll
        for (int r = 0; r < (BK * BN) / NT; ++r) {
            const int e = t + r * NT;
            const int k = e / BN, n = e % BN;          // B tile: 16 k x 64 cols
            const int gk = k0 + k, gn = n0 + n;
            Bs[k][n] = (gk < N && gn < N) ? __ldg(B + (size_t)gk * N + gn) : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[4], b[4];
#pragma unroll
            for (int i = 0; i < 4; ++i) a[i] = As[k][ty + 16 * i];
#pragma unroll
            for (int j = 0; j < 4; ++j) b[j] = Bs[k][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int gm = m0 + ty + 16 * i;
        if (gm >= N) continue;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int gn = n0 + tx + 16 * j;
            if (gn < N) C[(size_t)gm * N + gn] = acc[i][j];
        }
    }
}

torch::Tensor symmetric_matmul_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "inputs must be 2-D");
    TORCH_CHECK(A.size(0) == A.size(1) && B.size(0) == B.size(1) && A.size(0) == B.size(0),
                "inputs must be square matrices of the same size");
    A = A.contiguous();
    B = B.contiguous();
    const int N = (int)A.size(0);
    auto C = torch::empty({N, N}, A.options());
    if (N == 0) return C;
    dim3 grid((N + BN - 1) / BN, (N + BM - 1) / BM);
    symmetric_matmul_reg4x4_kernel<<<grid, NT>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "symmetric_matmul_reg4x4_kernel launch failed");
    return C;
}
"""

cpp_source = "torch::Tensor symmetric_matmul_cuda(torch::Tensor A, torch::Tensor B);"

matmul_ext = load_inline(
    name="symmetric_matmul_reg_block_4x4",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["symmetric_matmul_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return matmul_ext.symmetric_matmul_cuda(A, B)
