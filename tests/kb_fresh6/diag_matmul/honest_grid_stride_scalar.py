# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor diag_matmul_gridstride_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

// Flat 1D grid-stride loop over all N*M outputs (row-major, coalesced). The row of
// each element is idx / M; A[row] comes through the read-only cache (__ldg).
__global__ void diag_matmul_gridstride_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                              float* __restrict__ C, int64_t total, int64_t M) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        const int64_t row = idx / M;
        C[idx] = __ldg(A + row) * __ldg(B + idx);
    }
}

torch::Tensor diag_matmul_gridstride_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 1 && B.dim() == 2, "A must be (N,), B must be (N, M)");
    TORCH_CHECK(A.size(0) == B.size(0), "size mismatch");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    auto a = A.contiguous();
    auto b = B.contiguous();
    const int64_t N = b.size(0), M = b.size(1);
    auto out = torch::empty({N, M}, b.options());
    const int64_t total = N * M;
    if (total == 0) return out;

    int dev = 0, sms = 132;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int threads = 256;
    int64_t blocks = (total + threads - 1) / threads;
    const int64_t cap = (int64_t)sms * 32;
    if (blocks > cap) blocks = cap;
    diag_matmul_gridstride_kernel<<<(unsigned int)blocks, threads>>>(a.data_ptr<float>(), b.data_ptr<float>(),
                                                                     out.data_ptr<float>(), total, M);
    return out;
}
"""

diag_gs = load_inline(
    name="diag_matmul_grid_stride_scalar",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["diag_matmul_gridstride_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return diag_gs.diag_matmul_gridstride_cuda(A, B)
