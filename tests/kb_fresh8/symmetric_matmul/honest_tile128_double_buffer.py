# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Double-buffered 128x128x8 SGEMM (no reliance on symmetry): 256 threads, 8x8 register tile per
# thread, two shared-memory stages.  While the FMAs of stage s run, the next K-slab of A and B is
# already in flight into registers (float4 __ldg); it is written to stage s^1 afterwards, so only
# one __syncthreads per K step is needed.  A's slab is transposed into a k-major buffer padded to
# 132 floats per row (conflict-free transposed stores, still 16-byte aligned for float4 reads).
# The fast path needs N % 128 == 0 and 16-byte aligned pointers, else a generic 32x32-tile
# kernel runs.  Launches on the current PyTorch stream passed from Python.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define BM 128
#define BN 128
#define BK 8
#define NT 256
#define APAD 132

__global__ void __launch_bounds__(NT)
symmetric_matmul_db128_kernel(const float* __restrict__ A,
                              const float* __restrict__ B,
                              float* __restrict__ C, int N) {
    __shared__ __align__(16) float As[2][BK][APAD];
    __shared__ __align__(16) float Bs[2][BK][BN];
    const int t = threadIdx.x;
    const int tx = t % 16, ty = t / 16;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;

    // A slab: 128 rows x 8 k -> thread loads A[m0 + t/2][k0 + (t%2)*4 .. +3]
    const int a_m = t / 2;
    const int a_k = (t % 2) * 4;
    // B slab: 8 k x 128 cols -> thread loads B[k0 + t/32][n0 + (t%32)*4 .. +3]
    const int b_k = t / 32;
    const int b_n = (t % 32) * 4;

    const float* a_src = A + (size_t)(m0 + a_m) * N + a_k;
    const float* b_src = B + (size_t)b_k * N + n0 + b_n;

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

    float4 ra = __ldg(reinterpret_cast<const float4*>(a_src));
    float4 rb = __ldg(reinterpret_cast<const float4*>(b_src));
    As[0][a_k + 0][a_m] = ra.x;
    As[0][a_k + 1][a_m] = ra.y;
    As[0][a_k + 2][a_m] = ra.z;
    As[0][a_k + 3][a_m] = ra.w;
    *reinterpret_cast<float4*>(&Bs[0][b_k][b_n]) = rb;
    __syncthreads();

    const int num_k = N / BK;
    for (int kt = 0; kt < num_k; ++kt) {
        const int cur = kt & 1;
        const bool has_next = (kt + 1) < num_k;
        if (has_next) {
            const int k0 = (kt + 1) * BK;
            ra = __ldg(reinterpret_cast<const float4*>(a_src + k0));
            rb = __ldg(reinterpret_cast<const float4*>(b_src + (size_t)k0 * N));
        }
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][k][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][k][64 + ty * 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][k][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][k][64 + tx * 4]);
            const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        if (has_next) {
            const int nxt = cur ^ 1;
            As[nxt][a_k + 0][a_m] = ra.x;
            As[nxt][a_k + 1][a_m] = ra.y;
            As[nxt][a_k + 2][a_m] = ra.z;
            As[nxt][a_k + 3][a_m] = ra.w;
            *reinterpret_cast<float4*>(&Bs[nxt][b_k][b_n]) = rb;
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

__global__ void symmetric_matmul_tiled32_generic(const float* __restrict__ A,
                                                 const float* __restrict__ B,
                                                 float* __restrict__ C, int N) {
    __shared__ float As[32][33];
    __shared__ float Bs[32][33];
    const int tx = threadIdx.x, ty = threadIdx.y;   // 32 x 8 threads, 4 rows each
    const int col = blockIdx.x * 32 + tx;
    const int row_base = blockIdx.y * 32;
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < N; k0 += 32) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int lr = ty + 8 * r;
            const int ar = row_base + lr, ak = k0 + tx;
            As[lr][tx] = (ar < N && ak < N) ? A[(size_t)ar * N + ak] : 0.0f;
            const int bk = k0 + lr;
            Bs[lr][tx] = (bk < N && col < N) ? B[(size_t)bk * N + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll 8
        for (int kk = 0; kk < 32; ++kk) {
            const float bv = Bs[kk][tx];
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[r] = fmaf(As[ty + 8 * r][kk], bv, acc[r]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const int row = row_base + ty + 8 * r;
        if (row < N && col < N) C[(size_t)row * N + col] = acc[r];
    }
}

torch::Tensor symmetric_matmul_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle) {
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
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    const float* ap = A.data_ptr<float>();
    const float* bp = B.data_ptr<float>();
    float* cp = C.data_ptr<float>();
    const bool fast = (N % BM == 0) &&
                      (reinterpret_cast<uintptr_t>(ap) % 16 == 0) &&
                      (reinterpret_cast<uintptr_t>(bp) % 16 == 0) &&
                      (reinterpret_cast<uintptr_t>(cp) % 16 == 0);
    if (fast) {
        dim3 grid(N / BN, N / BM);
        symmetric_matmul_db128_kernel<<<grid, NT, 0, stream>>>(ap, bp, cp, N);
    } else {
        dim3 block(32, 8);
        dim3 grid((N + 31) / 32, (N + 31) / 32);
        symmetric_matmul_tiled32_generic<<<grid, block, 0, stream>>>(ap, bp, cp, N);
    }
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "symmetric_matmul kernel launch failed");
    return C;
}
"""

cpp_source = "torch::Tensor symmetric_matmul_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle);"

matmul_ext = load_inline(
    name="symmetric_matmul_tile128_double_buffer",
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
        return matmul_ext.symmetric_matmul_cuda(A, B, torch.cuda.current_stream(A.device).cuda_stream)
