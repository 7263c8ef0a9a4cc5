# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

// K is small, so one block handles one full output row: the row A[row, :] is staged once in shared
// memory and every thread reuses it for the columns it owns (strided loop over N).
__global__ void row_block_matmul_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                        float* __restrict__ C, int M, int K, int N) {
    extern __shared__ float a_row[];
    const int row = blockIdx.x;
    if (row >= M) return;

    for (int k = threadIdx.x; k < K; k += blockDim.x) {
        a_row[k] = A[(long long)row * K + k];
    }
    __syncthreads();

    float* c_row = C + (long long)row * N;
    for (int col = threadIdx.x; col < N; col += blockDim.x) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) {
            acc = fmaf(a_row[k], __ldg(&B[(long long)k * N + col]), acc);
        }
        c_row[col] = acc;
    }
}

torch::Tensor row_block_matmul(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "A and B must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.size(1) == B.size(0), "inner dimension mismatch");
    const int M = A.size(0), K = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, A.options());

    const int threads = 256;
    const size_t smem = (size_t)K * sizeof(float);
    row_block_matmul_kernel<<<M, threads, smem, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K, N);
    AT_CUDA_CHECK(cudaGetLastError());
    return C;
}
"""

cpp_source = "torch::Tensor row_block_matmul(torch::Tensor A, torch::Tensor B);"

row_block_ext = load_inline(
    name="tsm_row_block_matmul",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["row_block_matmul"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """Tall-skinny matmul with one block per output row."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return row_block_ext.row_block_matmul(A.contiguous(), B.contiguous())
