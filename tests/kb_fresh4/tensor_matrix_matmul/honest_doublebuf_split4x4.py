# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tmm_db_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

// Double-buffered 128x128x8 SGEMM on the flattened problem (N*M, K) @ (K, L).
//  * 256 threads, each computing 8x8 outputs laid out as four 4x4 quadrants
//    (rows ty*4 + {0,64}, columns tx*4 + {0,64}) so every shared-memory fragment read
//    is a conflict-free float4 (broadcast for A, consecutive for B).
//  * Two shared-memory stages: while the tile in stage `cur` is consumed, the next tile
//    is fetched from global memory into registers and written into stage `cur ^ 1`;
//    one __syncthreads per K-step.
//  * A is staged transposed (As[k][m]); loads and stores are float4.
// Requires N*M % 128 == 0, L % 128 == 0, K % 8 == 0 (true for 16x1024x2048 @ 2048x768).
constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 8;
constexpr int NTHREADS = 256;

__global__ void __launch_bounds__(NTHREADS, 2)
tmm_db_kernel(const float* __restrict__ A,
              const float* __restrict__ B,
              float* __restrict__ C,
              int R, int K, int L)
{
    __shared__ __align__(16) float As[2][BK][BM];
    __shared__ __align__(16) float Bs[2][BK][BN];

    const int tid = threadIdx.x;
    const int rowBase = blockIdx.y * BM;
    const int colBase = blockIdx.x * BN;

    const int aRow = tid >> 1;           // 0..127
    const int aCol = (tid & 1) * 4;      // 0 or 4
    const int bRow = tid >> 5;           // 0..7
    const int bCol = (tid & 31) * 4;     // 0..124

    const float* Ap = A + (size_t)(rowBase + aRow) * K + aCol;
    const float* Bp = B + (size_t)bRow * L + colBase + bCol;

    const int tx = tid & 15;             // column group
    const int ty = tid >> 4;             // row group

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

    // prologue: stage 0
    float4 ra = __ldg(reinterpret_cast<const float4*>(Ap));
    float4 rb = __ldg(reinterpret_cast<const float4*>(Bp));
    As[0][aCol + 0][aRow] = ra.x;
    As[0][aCol + 1][aRow] = ra.y;
    As[0][aCol + 2][aRow] = ra.z;
    As[0][aCol + 3][aRow] = ra.w;
    *reinterpret_cast<float4*>(&Bs[0][bRow][bCol]) = rb;
    __syncthreads();

    int cur = 0;
    for (int k0 = 0; k0 < K; k0 += BK) {
        const bool has_next = (k0 + BK) < K;
        if (has_next) {
            ra = __ldg(reinterpret_cast<const float4*>(Ap + k0 + BK));
            rb = __ldg(reinterpret_cast<const float4*>(Bp + (size_t)(k0 + BK) * L));
        }

#pragma unroll
        for (int d = 0; d < BK; ++d) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][d][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][d][ty * 4 + 64]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][d][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][d][tx * 4 + 64]);
            const float am[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float bn[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    acc[i][j] = fmaf(am[i], bn[j], acc[i][j]);
        }

        if (has_next) {
            const int nxt = cur ^ 1;
            As[nxt][aCol + 0][aRow] = ra.x;
            As[nxt][aCol + 1][aRow] = ra.y;
            As[nxt][aCol + 2][aRow] = ra.z;
            As[nxt][aCol + 3][aRow] = ra.w;
            *reinterpret_cast<float4*>(&Bs[nxt][bRow][bCol]) = rb;
        }
        __syncthreads();
        cur ^= 1;
    }

#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int r = rowBase + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
        float* Cp = C + (size_t)r * L + colBase + tx * 4;
        *reinterpret_cast<float4*>(Cp)      = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        *reinterpret_cast<float4*>(Cp + 64) = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    }
}

torch::Tensor tmm_db_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle) {
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
    TORCH_CHECK(R % BM == 0 && L % BN == 0 && K % BK == 0 && K > 0,
                "this kernel needs N*M % 128 == 0, L % 128 == 0 and K % 8 == 0");
    auto C = torch::empty({Nb, M, L}, A.options());
    if (C.numel() == 0) return C;
    TORCH_CHECK(reinterpret_cast<uintptr_t>(A.data_ptr<float>()) % 16 == 0 &&
                reinterpret_cast<uintptr_t>(B.data_ptr<float>()) % 16 == 0, "inputs must be 16-byte aligned");

    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    dim3 grid((unsigned)(L / BN), (unsigned)(R / BM));
    tmm_db_kernel<<<grid, NTHREADS, 0, stream>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), (int)R, (int)K, (int)L);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return C;
}
"""

tmm_db_cpp_source = "torch::Tensor tmm_db_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle);"

tmm_db = load_inline(
    name="tmm_honest_doublebuf_split4x4",
    cpp_sources=tmm_db_cpp_source,
    cuda_sources=tmm_db_source,
    functions=["tmm_db_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        stream = torch.cuda.current_stream(A.device).cuda_stream
        return tmm_db.tmm_db_cuda(A.contiguous(), B.contiguous(), stream)
