# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

// Multiplying by a diagonal matrix from the left scales each row: out[i, j] = A[i] * B[i, j].
// Flat 1-D launch over all N*M elements, one element per thread.
__global__ void row_scale_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                 float* __restrict__ out, long long total, int M) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < total) {
        int row = (int)(idx / M);
        out[idx] = A[row] * B[idx];
    }
}

torch::Tensor row_scale(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.size(0) == B.size(0), "size mismatch");
    const int M = B.size(1);
    const long long total = B.numel();
    auto out = torch::empty_like(B);

    const int threads = 512;
    const long long blocks = (total + threads - 1) / threads;
    row_scale_kernel<<<(unsigned int)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), out.data_ptr<float>(), total, M);
    AT_CUDA_CHECK(cudaGetLastError());
    return out;
}
"""

cpp_source = "torch::Tensor row_scale(torch::Tensor A, torch::Tensor B);"

row_scale_ext = load_inline(
    name="diag_row_scale_elementwise",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["row_scale"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return row_scale_ext.row_scale(A.contiguous(), B.contiguous())
