# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# K is tiny (64), so a 64x64 output tile needs the whole 64-wide slab of A and
# 64-deep slab of B at once: both are staged in shared memory in a single phase
# (a K loop only exists for larger K).  Each of the 256 threads computes a 4x4
# sub-tile strided by 16 rows / 16 columns, which keeps the shared-memory reads
# broadcast/conflict-free and the global stores coalesced.
full_k_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define KC 64
#define TPB 256

__global__ void __launch_bounds__(TPB)
matmul_full_k_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                     int M, int N, int K) {
    __shared__ float As[BM][KC + 1];
    __shared__ float Bs[KC][BN];

    const int tx = threadIdx.x;          // 0..15
    const int ty = threadIdx.y;          // 0..15
    const int tid = ty * 16 + tx;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;

    float acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += KC) {
        for (int i = tid; i < BM * KC; i += TPB) {
            int r = i / KC, c = i % KC;
            int gr = m0 + r, gc = k0 + c;
            As[r][c] = (gr < M && gc < K) ? __ldg(A + (long long)gr * K + gc) : 0.0f;
        }
        for (int i = tid; i < KC * BN; i += TPB) {
            int r = i / BN, c = i % BN;
            int gr = k0 + r, gc = n0 + c;
            Bs[r][c] = (gr < K && gc < N) ? __ldg(B + (long long)gr * N + gc) : 0.0f;
        }
        __syncthreads();

#pragma unroll 8
        for (int k = 0; k < KC; ++k) {
            float a[4], b[4];
#pragma unroll
            for (int i = 0; i < 4; ++i) a[i] = As[ty + 16 * i][k];
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
        int r = m0 + ty + 16 * i;
        if (r >= M) continue;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            int c = n0 + tx + 16 * j;
            if (c < N) C[(long long)r * N + c] = acc[i][j];
        }
    }
}

torch::Tensor matmul_full_k(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "CUDA tensors required");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && A.size(1) == B.size(0), "shape mismatch");
    A = A.contiguous();
    B = B.contiguous();
    const int M = A.size(0), K = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, A.options());
    if (M == 0 || N == 0) return C;
    dim3 block(16, 16);
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    TORCH_CHECK(grid.y <= 65535, "M too large");
    matmul_full_k_kernel<<<grid, block>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, N, K);
    return C;
}
"""

full_k_cpp = "torch::Tensor matmul_full_k(torch::Tensor A, torch::Tensor B);"

full_k = load_inline(
    name="matmul_small_k_full_k_smem_4x4",
    cpp_sources=full_k_cpp,
    cuda_sources=full_k_cuda,
    functions=["matmul_full_k"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return full_k.matmul_full_k(A, B)
