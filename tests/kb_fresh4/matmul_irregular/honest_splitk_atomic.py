# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mmi_splitk_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

// Split-K SGEMM: the K = 2949 reduction is cut into SPLITK chunks (blockIdx.z), each a
// multiple of BK.  A block of 256 threads computes a 64x64 partial tile of C over its
// chunk with 4x4 register blocking (BK = 16 per shared-memory step) and adds the partial
// sums into C with atomicAdd, so C must start zeroed.  Staging is scalar and guarded
// against M / N and against the END OF THE CHUNK (not just K), so no k is counted twice.
constexpr int BM = 64;
constexpr int BN = 64;
constexpr int BK = 16;
constexpr int TM = 4;
constexpr int TN = 4;
constexpr int APAD = 4;
constexpr int NTHREADS = (BM / TM) * (BN / TN);   // 256
constexpr int SPLITK = 4;

__global__ void __launch_bounds__(NTHREADS)
mmi_splitk_kernel(const float* __restrict__ A,
                  const float* __restrict__ B,
                  float* __restrict__ C,
                  int M, int K, int N, int kChunk)
{
    __shared__ __align__(16) float As[BK][BM + APAD];   // transposed: As[k][m]
    __shared__ __align__(16) float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int rowBase = blockIdx.y * BM;
    const int colBase = blockIdx.x * BN;
    const int kBegin = blockIdx.z * kChunk;
    const int kEnd = min(K, kBegin + kChunk);
    if (kBegin >= kEnd) return;

    // A staging (64 x 16): column aCol, rows aRow + 16*i
    const int aCol = tid & 15;
    const int aRow = tid >> 4;          // 0..15
    // B staging (16 x 64): column bCol, rows bRow + 4*i
    const int bCol = tid & 63;
    const int bRow = tid >> 6;          // 0..3

    const int tCol = tid % (BN / TN);   // 0..15
    const int tRow = tid / (BN / TN);   // 0..15

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    for (int k0 = kBegin; k0 < kEnd; k0 += BK) {
#pragma unroll
        for (int i = 0; i < BM / 16; ++i) {
            const int r = rowBase + aRow + 16 * i;
            const int k = k0 + aCol;
            As[aCol][aRow + 16 * i] = (r < M && k < kEnd) ? A[(size_t)r * K + k] : 0.0f;
        }
#pragma unroll
        for (int i = 0; i < BK / 4; ++i) {
            const int k = k0 + bRow + 4 * i;
            const int c = colBase + bCol;
            Bs[bRow + 4 * i][bCol] = (k < kEnd && c < N) ? B[(size_t)k * N + c] : 0.0f;
        }
        __syncthreads();

#pragma unroll
        for (int d = 0; d < BK; ++d) {
            const float4 a = *reinterpret_cast<const float4*>(&As[d][tRow * TM]);
            const float4 b = *reinterpret_cast<const float4*>(&Bs[d][tCol * TN]);
            const float am[TM] = {a.x, a.y, a.z, a.w};
            const float bn[TN] = {b.x, b.y, b.z, b.w};
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(am[i], bn[j], acc[i][j]);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = rowBase + tRow * TM + i;
        if (r >= M) continue;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int c = colBase + tCol * TN + j;
            if (c < N) atomicAdd(C + (size_t)r * N + c, acc[i][j]);
        }
    }
}

torch::Tensor mmi_splitk_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "A and B must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "A and B must be float32");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "expected A of shape (M, K) and B of shape (K, N)");
    TORCH_CHECK(A.size(1) == B.size(0), "inner dimensions must match");
    TORCH_CHECK(A.device() == B.device(), "A and B must be on the same device");
    A = A.contiguous();
    B = B.contiguous();
    const int M = (int)A.size(0), K = (int)A.size(1), N = (int)B.size(1);
    auto C = torch::zeros({M, N}, A.options());   // atomics accumulate into C
    if (C.numel() == 0 || K == 0) return C;

    // chunk length: ceil(K / SPLITK) rounded up to a multiple of BK
    int kChunk = (K + SPLITK - 1) / SPLITK;
    kChunk = (kChunk + BK - 1) / BK * BK;
    const int splits = (K + kChunk - 1) / kChunk;

    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM, splits);
    mmi_splitk_kernel<<<grid, NTHREADS, 0, stream>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K, N, kChunk);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return C;
}
"""

mmi_splitk_cpp_source = "torch::Tensor mmi_splitk_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle);"

mmi_splitk = load_inline(
    name="mmi_honest_splitk_atomic",
    cpp_sources=mmi_splitk_cpp_source,
    cuda_sources=mmi_splitk_source,
    functions=["mmi_splitk_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        stream = torch.cuda.current_stream(A.device).cuda_stream
        return mmi_splitk.mmi_splitk_cuda(A.contiguous(), B.contiguous(), stream)
