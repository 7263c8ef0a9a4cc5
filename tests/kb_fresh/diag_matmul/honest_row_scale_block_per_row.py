# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

// One block per row of B. The row's diagonal entry is read once into shared memory and
// broadcast to all threads, which then stride across the row.
__global__ void diag_mm_row_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int N, int M) {
    __shared__ float scale;
    const int row = blockIdx.x;
    if (row >= N) return;
    if (threadIdx.x == 0) scale = A[row];
    __syncthreads();

    const float s = scale;
    const long long base = (long long)row * M;
    for (int col = threadIdx.x; col < M; col += blockDim.x) {
        C[base + col] = s * B[base + col];
    }
}

torch::Tensor diag_mm(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.dim() == 1 && B.dim() == 2, "A must be 1-D and B 2-D");
    TORCH_CHECK(A.size(0) == B.size(0), "size mismatch");
    const int N = B.size(0), M = B.size(1);
    auto C = torch::empty({N, M}, B.options());

    const int threads = 1024;
    diag_mm_row_kernel<<<N, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N, M);
    AT_CUDA_CHECK(cudaGetLastError());
    return C;
}
"""

cpp_source = "torch::Tensor diag_mm(torch::Tensor A, torch::Tensor B);"

diag_mm_ext = load_inline(
    name="diag_row_scale_block_per_row",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["diag_mm"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return diag_mm_ext.diag_mm(A.contiguous(), B.contiguous())
