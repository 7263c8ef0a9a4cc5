# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tril_gemm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define NTHREADS 256

// 128x128 output tile per block, 256 threads, 8x8 register micro-tile per thread,
// float4 global loads, A stored transposed in shared memory.
// Only the lower-triangular tiles (tile row bi >= tile col bj) are launched: a 1D grid of
// T*(T+1)/2 blocks is mapped onto (bi, bj). Upper tiles stay zero (output is zero-initialised).
// For tile (bi, bj) only k in [bj*BN, (bi+1)*BM) can contribute, since A and B are lower triangular.
__global__ void __launch_bounds__(NTHREADS)
tril_sgemm_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                  int N, bool vec) {
    __shared__ __align__(16) float As[BK][BM];
    __shared__ __align__(16) float Bs[BK][BN];

    // linear block id -> lower-triangular tile coordinates
    const int t = blockIdx.x;
    int bi = (int)((sqrtf(8.0f * (float)t + 1.0f) - 1.0f) * 0.5f);
    while ((bi + 1) * (bi + 2) / 2 <= t) ++bi;
    while (bi * (bi + 1) / 2 > t) --bi;
    const int bj = t - bi * (bi + 1) / 2;

    const int rowBase = bi * BM;
    const int colBase = bj * BN;

    const int tid = threadIdx.x;
    const int ty = tid / 16;          // 0..15 -> rows ty*8 .. ty*8+7
    const int tx = tid % 16;          // 0..15 -> cols tx*8 .. tx*8+7

    // load mapping
    const int aRow = tid / 2;         // 0..127
    const int aK = (tid % 2) * 4;     // 0 or 4
    const int bK = tid / 32;          // 0..7
    const int bC = (tid % 32) * 4;    // 0..124

    float acc[TM][TN];
    #pragma unroll
    for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    const int kBegin = colBase;
    const int kEnd = min(N, rowBase + BM);

    for (int k0 = kBegin; k0 < kEnd; k0 += BK) {
        // ---- A tile (BM x BK), stored transposed As[k][m]
        {
            const int gr = rowBase + aRow;
            const int gk = k0 + aK;
            float4 v;
            if (vec && gr < N && gk + 3 < N) {
                v = __ldg(reinterpret_cast<const float4*>(A + (long long)gr * N + gk));
            } else {
                const long long base = (long long)gr * N;
                v.x = (gr < N && gk + 0 < N) ? A[base + gk + 0] : 0.0f;
                v.y = (gr < N && gk + 1 < N) ? A[base + gk + 1] : 0.0f;
                v.z = (gr < N && gk + 2 < N) ? A[base + gk + 2] : 0.0f;
                v.w = (gr < N && gk + 3 < N) ? A[base + gk + 3] : 0.0f;
            }
            As[aK + 0][aRow] = v.x;
            As[aK + 1][aRow] = v.y;
            As[aK + 2][aRow] = v.z;
            As[aK + 3][aRow] = v.w;
        }
        // ---- B tile (BK x BN)
        {
            const int gk = k0 + bK;
            const int gc = colBase + bC;
            float4 v;
            if (vec && gk < N && gc + 3 < N) {
                v = __ldg(reinterpret_cast<const float4*>(B + (long long)gk * N + gc));
            } else {
                const long long base = (long long)gk * N;
                v.x = (gk < N && gc + 0 < N) ? B[base + gc + 0] : 0.0f;
                v.y = (gk < N && gc + 1 < N) ? B[base + gc + 1] : 0.0f;
                v.z = (gk < N && gc + 2 < N) ? B[base + gc + 2] : 0.0f;
                v.w = (gk < N && gc + 3 < N) ? B[base + gc + 3] : 0.0f;
            }
            *reinterpret_cast<float4*>(&Bs[bK][bC]) = v;
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[TM], b[TN];
            float4 a0 = *reinterpret_cast<const float4*>(&As[kk][ty * TM]);
            float4 a1 = *reinterpret_cast<const float4*>(&As[kk][ty * TM + 4]);
            float4 b0 = *reinterpret_cast<const float4*>(&Bs[kk][tx * TN]);
            float4 b1 = *reinterpret_cast<const float4*>(&Bs[kk][tx * TN + 4]);
            a[0] = a0.x; a[1] = a0.y; a[2] = a0.z; a[3] = a0.w;
            a[4] = a1.x; a[5] = a1.y; a[6] = a1.z; a[7] = a1.w;
            b[0] = b0.x; b[1] = b0.y; b[2] = b0.z; b[3] = b0.w;
            b[4] = b1.x; b[5] = b1.y; b[6] = b1.z; b[7] = b1.w;
            #pragma unroll
            for (int i = 0; i < TM; ++i)
                #pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

    // ---- store with the tril mask (only matters on diagonal tiles)
    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = rowBase + ty * TM + i;
        if (r >= N) continue;
        const int c0 = colBase + tx * TN;
        float* crow = C + (long long)r * N;
        if (vec && c0 + TN - 1 < N) {
            float4 o0, o1;
            o0.x = (r >= c0 + 0) ? acc[i][0] : 0.0f;
            o0.y = (r >= c0 + 1) ? acc[i][1] : 0.0f;
            o0.z = (r >= c0 + 2) ? acc[i][2] : 0.0f;
            o0.w = (r >= c0 + 3) ? acc[i][3] : 0.0f;
            o1.x = (r >= c0 + 4) ? acc[i][4] : 0.0f;
            o1.y = (r >= c0 + 5) ? acc[i][5] : 0.0f;
            o1.z = (r >= c0 + 6) ? acc[i][6] : 0.0f;
            o1.w = (r >= c0 + 7) ? acc[i][7] : 0.0f;
            *reinterpret_cast<float4*>(crow + c0) = o0;
            *reinterpret_cast<float4*>(crow + c0 + 4) = o1;
        } else {
            #pragma unroll
            for (int j = 0; j < TN; ++j) {
                const int c = c0 + j;
                if (c < N) crow[c] = (r >= c) ? acc[i][j] : 0.0f;
            }
        }
    }
}

torch::Tensor tril_gemm(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.dim() == 2 && A.size(0) == A.size(1) && B.sizes() == A.sizes(), "square inputs of equal size");
    TORCH_CHECK(A.is_contiguous() && B.is_contiguous(), "inputs must be contiguous");
    const int N = A.size(0);
    // upper tiles are never launched, so start from zeros
    auto C = torch::zeros({N, N}, A.options());
    if (N == 0) return C;

    const bool vec = (N % 4 == 0) &&
                     (reinterpret_cast<uintptr_t>(A.data_ptr<float>()) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(B.data_ptr<float>()) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(C.data_ptr<float>()) % 16 == 0);

    const int T = (N + BM - 1) / BM;
    const int numTiles = T * (T + 1) / 2;
    tril_sgemm_kernel<<<numTiles, NTHREADS, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N, vec);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "tril_sgemm_kernel launch failed: ", cudaGetErrorString(err));
    return C;
}
"""

tril_gemm_cpp = "torch::Tensor tril_gemm(torch::Tensor A, torch::Tensor B);"

tril_gemm_ext = load_inline(
    name="tril_matmul_reg_8x8_float4_trigrid",
    cpp_sources=tril_gemm_cpp,
    cuda_sources=tril_gemm_source,
    functions=["tril_gemm"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = tril_gemm_ext

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return self.ext.tril_gemm(A.contiguous(), B.contiguous())
