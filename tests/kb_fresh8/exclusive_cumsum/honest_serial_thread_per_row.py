# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Naive: one thread owns a whole row and walks it sequentially.  Adjacent threads
# touch addresses N floats apart, so every load/store is uncoalesced.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void exclusive_cumsum_row_serial_kernel(const float* __restrict__ x,
                                                   float* __restrict__ out,
                                                   int B, int N) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= B) return;
    const float* xr = x + (size_t)row * N;
    float* orow = out + (size_t)row * N;
    float acc = 0.0f;
    for (int j = 0; j < N; ++j) {
        orow[j] = acc;      // exclusive: write the sum of x[0..j-1] first
        acc += xr[j];
    }
}

torch::Tensor exclusive_cumsum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D (B, N)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int B = (int)xc.size(0);
    const int N = (int)xc.size(1);
    if (B == 0 || N == 0) return out;
    const int threads = 64;
    const int blocks = (B + threads - 1) / threads;
    exclusive_cumsum_row_serial_kernel<<<blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(), B, N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_source = "torch::Tensor exclusive_cumsum_cuda(torch::Tensor x);"

_ext = load_inline(
    name="exclusive_cumsum_row_serial",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["exclusive_cumsum_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2 and self.dim in (1, -1), "kernel scans along dim 1 of a 2-D tensor"
        return _ext.exclusive_cumsum_cuda(x)
