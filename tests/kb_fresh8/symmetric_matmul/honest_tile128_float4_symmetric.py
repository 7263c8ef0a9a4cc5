# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# 128x128x8 register-blocked SGEMM, 256 threads, 8x8 outputs per thread (split into 4x4
# quadrants 64 apart to keep shared-memory float4 reads conflict-free).  Because A == A^T, the
# k-major A tile As[k][m] = A[m0+m][k0+k] equals A[k0+k][m0+m], so both operand tiles are loaded
# as contiguous 128-bit row segments and stored to shared memory without a transpose.  The fast
# path needs N % 128 == 0 and 16-byte aligned pointers; otherwise a zero-padded 16x16 tiled
# kernel (which does not rely on symmetry) is used.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define BM 128
#define BN 128
#define BK 8
#define NT 256

__global__ void __launch_bounds__(NT)
symmetric_matmul_tile128_kernel(const float* __restrict__ A,
                                const float* __restrict__ B,
                                float* __restrict__ C, int N) {
    __shared__ __align__(16) float As[BK][BM];
    __shared__ __align__(16) float Bs[BK][BN];
    const int t = threadIdx.x;
    const int tx = t % 16, ty = t / 16;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    const int lr = t / 32;          // k row of the tile this thread loads (0..7)
    const int lc = (t % 32) * 4;    // first of 4 columns it loads (0..124)

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

    const float* a_ptr = A + (size_t)lr * N + m0 + lc;   // row k0+lr of A (== column of A)
    const float* b_ptr = B + (size_t)lr * N + n0 + lc;

    for (int k0 = 0; k0 < N; k0 += BK) {
        const float4 va = __ldg(reinterpret_cast<const float4*>(a_ptr + (size_t)k0 * N));
        const float4 vb = __ldg(reinterpret_cast<const float4*>(b_ptr + (size_t)k0 * N));
        *reinterpret_cast<float4*>(&As[lr][lc]) = va;
        *reinterpret_cast<float4*>(&Bs[lr][lc]) = vb;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[k][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[k][64 + ty * 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[k][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[k][64 + tx * 4]);
            const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
        float* crow = C + (size_t)row * N + n0;
        *reinterpret_cast<float4*>(crow + tx * 4) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        *reinterpret_cast<float4*>(crow + 64 + tx * 4) = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    }
}

__global__ void symmetric_matmul_tiled16_fallback(const float* __restrict__ A,
                                                  const float* __restrict__ B,
                                                  float* __restrict__ C, int N) {
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * 16 + ty;
    const int col = blockIdx.x * 16 + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += 16) {
        As[ty][tx] = (row < N && k0 + tx < N) ? A[(size_t)row * N + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < N && col < N) ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < 16; ++kk) acc = fmaf(As[ty][kk], Bs[kk][tx], acc);
        __syncthreads();
    }
    if (row < N && col < N) C[(size_t)row * N + col] = acc;
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
    const float* ap = A.data_ptr<float>();
    const float* bp = B.data_ptr<float>();
    float* cp = C.data_ptr<float>();
    const bool fast = (N % BM == 0) &&
                      (reinterpret_cast<uintptr_t>(ap) % 16 == 0) &&
                      (reinterpret_cast<uintptr_t>(bp) % 16 == 0) &&
                      (reinterpret_cast<uintptr_t>(cp) % 16 == 0);
    if (fast) {
        dim3 grid(N / BN, N / BM);
        symmetric_matmul_tile128_kernel<<<grid, NT>>>(ap, bp, cp, N);
    } else {
        dim3 block(16, 16);
        dim3 grid((N + 15) / 16, (N + 15) / 16);
        symmetric_matmul_tiled16_fallback<<<grid, block>>>(ap, bp, cp, N);
    }
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "symmetric_matmul kernel launch failed");
    return C;
}
"""

cpp_source = "torch::Tensor symmetric_matmul_cuda(torch::Tensor A, torch::Tensor B);"

matmul_ext = load_inline(
    name="symmetric_matmul_tile128_float4_symmetric",
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
