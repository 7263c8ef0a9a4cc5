# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

#define COLS_PER_THREAD 4
#define BLOCK_X 64    // 64 threads * 4 columns = 256 columns per block
#define BLOCK_Y 4     // 4 rows per block

// Each thread produces 4 consecutive columns of one output row using float4 loads of B and a
// float4 store of C. The 4 rows of A used by the block are staged in shared memory.
__global__ void matmul_float4_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                     float* __restrict__ C, int M, int K, int N) {
    extern __shared__ float As[];   // [BLOCK_Y][K]
    const int ty = threadIdx.y;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int nthreads = blockDim.x * blockDim.y;
    const int row0 = blockIdx.y * BLOCK_Y;

    for (int i = tid; i < BLOCK_Y * K; i += nthreads) {
        int r = i / K, k = i % K;
        As[i] = (row0 + r < M) ? A[(long long)(row0 + r) * K + k] : 0.0f;
    }
    __syncthreads();

    const int row = row0 + ty;
    const int col = (blockIdx.x * BLOCK_X + threadIdx.x) * COLS_PER_THREAD;
    if (row >= M || col >= N) return;
    const float* a = As + ty * K;

    if (col + COLS_PER_THREAD <= N) {
        float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
        for (int k = 0; k < K; ++k) {
            const float av = a[k];
            const float4 b = __ldg(reinterpret_cast<const float4*>(B + (long long)k * N + col));
            acc.x = fmaf(av, b.x, acc.x);
            acc.y = fmaf(av, b.y, acc.y);
            acc.z = fmaf(av, b.z, acc.z);
            acc.w = fmaf(av, b.w, acc.w);
        }
        *reinterpret_cast<float4*>(C + (long long)row * N + col) = acc;
    } else {
        for (int c = col; c < N; ++c) {
            float acc = 0.0f;
            for (int k = 0; k < K; ++k) acc = fmaf(a[k], B[(long long)k * N + c], acc);
            C[(long long)row * N + c] = acc;
        }
    }
}

// Scalar fallback when N is not a multiple of 4 (float4 accesses would be misaligned).
__global__ void matmul_scalar_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                     float* __restrict__ C, int M, int K, int N) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc = fmaf(A[(long long)row * K + k], B[(long long)k * N + col], acc);
    C[(long long)row * N + col] = acc;
}

torch::Tensor matmul_float4(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be on CUDA");
    TORCH_CHECK(A.size(1) == B.size(0), "inner dimension mismatch");
    const int M = A.size(0), K = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, A.options());
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    if (N % 4 == 0) {
        dim3 block(BLOCK_X, BLOCK_Y);
        const int cols_per_block = BLOCK_X * COLS_PER_THREAD;
        dim3 grid((N + cols_per_block - 1) / cols_per_block, (M + BLOCK_Y - 1) / BLOCK_Y);
        const size_t smem = (size_t)BLOCK_Y * K * sizeof(float);
        matmul_float4_kernel<<<grid, block, smem, stream>>>(
            A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K, N);
    } else {
        dim3 block(256);
        dim3 grid((N + 255) / 256, M);
        matmul_scalar_kernel<<<grid, block, 0, stream>>>(
            A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K, N);
    }
    AT_CUDA_CHECK(cudaGetLastError());
    return C;
}
"""

cpp_source = "torch::Tensor matmul_float4(torch::Tensor A, torch::Tensor B);"

float4_ext = load_inline(
    name="tsm_matmul_float4_cols",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["matmul_float4"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return float4_ext.matmul_float4(A.contiguous(), B.contiguous())
