# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mmi_db_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

// Double-buffered 128x128x8 SGEMM with 2-D register blocking for irregular sizes.
//  * 256 threads, each computing 8x8 outputs as four 4x4 quadrants
//    (rows ty*4 + {0,64}, columns tx*4 + {0,64}); fragments are read from shared memory
//    as float4 (A broadcast, B consecutive).
//  * Rows of A (K = 2949) and B (N = 3007) are not 16-byte aligned, so global loads are
//    scalar and bounds-checked (zero-filled outside the matrices): 4 elements of A and 4 of
//    B per thread per K-step, fetched into registers one step ahead and written into the
//    other shared-memory stage after the current one is consumed.
//  * A is stored transposed (As[k][m]) with a row pitch of 132 floats, which keeps the
//    float4 reads aligned and spreads the transposing stores over all banks.
//  * Stores are scalar and guarded (N is odd).
constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 8;
constexpr int APAD = 4;
constexpr int NTHREADS = 256;

__global__ void __launch_bounds__(NTHREADS, 2)
mmi_db_kernel(const float* __restrict__ A,
              const float* __restrict__ B,
              float* __restrict__ C,
              int M, int K, int N)
{
    __shared__ __align__(16) float As[2][BK][BM + APAD];
    __shared__ __align__(16) float Bs[2][BK][BN];

    const int tid = threadIdx.x;
    const int rowBase = blockIdx.y * BM;
    const int colBase = blockIdx.x * BN;

    // A staging: column aCol of the 8-wide slice, rows aRow + 32*i (i = 0..3)
    const int aCol = tid & 7;
    const int aRow = tid >> 3;           // 0..31
    // B staging: row bRow + 2*i (i = 0..3) of the 8-deep slice, column bCol
    const int bCol = tid & 127;
    const int bRow = tid >> 7;           // 0..1

    const int tx = tid & 15;
    const int ty = tid >> 4;

    float pa[4], pb[4];

    auto load_tile = [&](int k0) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int r = rowBase + aRow + 32 * i;
            const int k = k0 + aCol;
            pa[i] = (r < M && k < K) ? __ldg(A + (size_t)r * K + k) : 0.0f;
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int k = k0 + bRow + 2 * i;
            const int c = colBase + bCol;
            pb[i] = (k < K && c < N) ? __ldg(B + (size_t)k * N + c) : 0.0f;
        }
    };
    auto store_tile = [&](int buf) {
#pragma unroll
        for (int i = 0; i < 4; ++i) As[buf][aCol][aRow + 32 * i] = pa[i];
#pragma unroll
        for (int i = 0; i < 4; ++i) Bs[buf][bRow + 2 * i][bCol] = pb[i];
    };

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

    load_tile(0);
    store_tile(0);
    __syncthreads();

    int cur = 0;
    for (int k0 = 0; k0 < K; k0 += BK) {
        const bool has_next = (k0 + BK) < K;
        if (has_next) load_tile(k0 + BK);

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

        if (has_next) store_tile(cur ^ 1);
        __syncthreads();
        cur ^= 1;
    }

#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int r = rowBase + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
        if (r >= M) continue;
        float* Cr = C + (size_t)r * N;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            const int c = colBase + (j < 4 ? tx * 4 + j : 64 + tx * 4 + (j - 4));
            if (c < N) Cr[c] = acc[i][j];
        }
    }
}

torch::Tensor mmi_db_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "A and B must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "A and B must be float32");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "expected A of shape (M, K) and B of shape (K, N)");
    TORCH_CHECK(A.size(1) == B.size(0), "inner dimensions must match");
    TORCH_CHECK(A.device() == B.device(), "A and B must be on the same device");
    A = A.contiguous();
    B = B.contiguous();
    const int M = (int)A.size(0), K = (int)A.size(1), N = (int)B.size(1);
    if (K == 0) return torch::zeros({M, N}, A.options());
    auto C = torch::empty({M, N}, A.options());   // every element is written by the kernel
    if (C.numel() == 0) return C;

    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    mmi_db_kernel<<<grid, NTHREADS, 0, stream>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K, N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return C;
}
"""

mmi_db_cpp_source = "torch::Tensor mmi_db_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle);"

mmi_db = load_inline(
    name="mmi_honest_regblock_2d_doublebuf",
    cpp_sources=mmi_db_cpp_source,
    cuda_sources=mmi_db_source,
    functions=["mmi_db_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        stream = torch.cuda.current_stream(A.device).cuda_stream
        return mmi_db.mmi_db_cuda(A.contiguous(), B.contiguous(), stream)
