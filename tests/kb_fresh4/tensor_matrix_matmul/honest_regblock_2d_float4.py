# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tmm_rb2d_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

// 2-D register blocking on the flattened GEMM (N*M, K) @ (K, L).
// 256 threads own a 128x128 tile of C, each an 8x8 sub-tile held in registers.
// Per K-step (BK = 8) every thread loads one float4 of A and one float4 of B from global
// memory; the A tile is stored transposed (As[k][m]) so the inner loop reads A and B
// fragments along contiguous shared-memory rows.  Outputs are written as float4.
// Requires N*M % 128 == 0, L % 128 == 0, K % 8 == 0 (true for 16x1024x2048 @ 2048x768).
constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 8;
constexpr int TM = 8;
constexpr int TN = 8;
constexpr int NTHREADS = (BM / TM) * (BN / TN);   // 256

__global__ void __launch_bounds__(NTHREADS)
tmm_rb2d_kernel(const float* __restrict__ A,
                const float* __restrict__ B,
                float* __restrict__ C,
                int R, int K, int L)
{
    __shared__ __align__(16) float As[BK * BM];   // transposed: [BK][BM]
    __shared__ __align__(16) float Bs[BK * BN];   // [BK][BN]

    const int tid = threadIdx.x;
    const int rowBase = blockIdx.y * BM;
    const int colBase = blockIdx.x * BN;

    // global -> shared staging: A tile 128x8 (two float4 per row), B tile 8x128 (32 float4 per row)
    const int aRow = tid >> 1;           // 0..127
    const int aCol = (tid & 1) * 4;      // 0 or 4
    const int bRow = tid >> 5;           // 0..7
    const int bCol = (tid & 31) * 4;     // 0..124

    const float* Ap = A + (size_t)(rowBase + aRow) * K + aCol;
    const float* Bp = B + (size_t)bRow * L + colBase + bCol;

    // compute mapping: 16x16 threads, each an 8x8 block
    const int tRow = tid / (BN / TN);    // 0..15
    const int tCol = tid % (BN / TN);    // 0..15

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    float regM[TM], regN[TN];

    for (int k0 = 0; k0 < K; k0 += BK) {
        const float4 a4 = __ldg(reinterpret_cast<const float4*>(Ap + k0));
        As[(aCol + 0) * BM + aRow] = a4.x;
        As[(aCol + 1) * BM + aRow] = a4.y;
        As[(aCol + 2) * BM + aRow] = a4.z;
        As[(aCol + 3) * BM + aRow] = a4.w;
        const float4 b4 = __ldg(reinterpret_cast<const float4*>(Bp + (size_t)k0 * L));
        *reinterpret_cast<float4*>(&Bs[bRow * BN + bCol]) = b4;
        __syncthreads();

#pragma unroll
        for (int d = 0; d < BK; ++d) {
#pragma unroll
            for (int i = 0; i < TM; ++i) regM[i] = As[d * BM + tRow * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) regN[j] = Bs[d * BN + tCol * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(regM[i], regN[j], acc[i][j]);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        float* Cp = C + (size_t)(rowBase + tRow * TM + i) * L + colBase + tCol * TN;
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
            *reinterpret_cast<float4*>(Cp + j) = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
        }
    }
}

torch::Tensor tmm_rb2d_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "A and B must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "A and B must be float32");
    TORCH_CHECK(A.dim() == 3 && B.dim() == 2, "expected A of shape (N, M, K) and B of shape (K, L)");
    TORCH_CHECK(A.size(2) == B.size(0), "inner dimensions must match");
    TORCH_CHECK(A.device() == B.device(), "A and B must be on the same device");
    A = A.contiguous();
    B = B.contiguous();
    const int64_t Nb = A.size(0), M = A.size(1), K = A.size(2), L = B.size(1);
    const int64_t R = Nb * M;
    TORCH_CHECK(R < (int64_t)1 << 31, "too many rows");
    TORCH_CHECK(R % BM == 0 && L % BN == 0 && K % BK == 0,
                "this kernel needs N*M % 128 == 0, L % 128 == 0 and K % 8 == 0");
    auto C = torch::empty({Nb, M, L}, A.options());
    if (C.numel() == 0) return C;
    TORCH_CHECK(reinterpret_cast<uintptr_t>(A.data_ptr<float>()) % 16 == 0 &&
                reinterpret_cast<uintptr_t>(B.data_ptr<float>()) % 16 == 0, "inputs must be 16-byte aligned");

    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    dim3 grid((unsigned)(L / BN), (unsigned)(R / BM));
    tmm_rb2d_kernel<<<grid, NTHREADS, 0, stream>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), (int)R, (int)K, (int)L);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return C;
}
"""

tmm_rb2d_cpp_source = "torch::Tensor tmm_rb2d_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle);"

tmm_rb2d = load_inline(
    name="tmm_honest_regblock_2d_float4",
    cpp_sources=tmm_rb2d_cpp_source,
    cuda_sources=tmm_rb2d_source,
    functions=["tmm_rb2d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        stream = torch.cuda.current_stream(A.device).cuda_stream
        return tmm_rb2d.tmm_rb2d_cuda(A.contiguous(), B.contiguous(), stream)
