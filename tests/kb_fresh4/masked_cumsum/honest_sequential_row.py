# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

masked_cumsum_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

// Naive: one thread owns a whole row and walks it sequentially with a running sum.
// Neighbouring threads touch addresses L floats apart, so nothing is coalesced.
__global__ void masked_cumsum_seq_kernel(const float* __restrict__ x,
                                         const unsigned char* __restrict__ m,
                                         float* __restrict__ out,
                                         int rows, int L) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const size_t base = (size_t)row * L;
    float acc = 0.f;
    for (int k = 0; k < L; ++k) {
        if (m[base + k]) acc += x[base + k];
        out[base + k] = acc;
    }
}

torch::Tensor masked_cumsum_cuda(torch::Tensor x, torch::Tensor mask, int64_t dim, int64_t stream_handle) {
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    TORCH_CHECK(x.is_cuda() && mask.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(mask.scalar_type() == torch::kBool, "mask must be bool");
    TORCH_CHECK(x.sizes() == mask.sizes(), "x and mask must have the same shape");
    const int64_t nd = x.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim == nd - 1, "this kernel scans along the last (contiguous) dimension only");
    auto xc = x.contiguous();
    auto mc = mask.contiguous();
    auto out = torch::empty_like(xc);
    const int64_t L64 = xc.size(nd - 1);
    if (xc.numel() == 0 || L64 == 0) return out;
    const int64_t rows64 = xc.numel() / L64;
    TORCH_CHECK(L64 < (1LL << 31) && rows64 < (1LL << 31), "tensor too large");
    const int L = (int)L64;
    const int rows = (int)rows64;
    const float* xp = xc.data_ptr<float>();
    const unsigned char* mp = reinterpret_cast<const unsigned char*>(mc.data_ptr<bool>());
    float* op = out.data_ptr<float>();

    const int threads = 128;
    const int blocks = (rows + threads - 1) / threads;
    masked_cumsum_seq_kernel<<<blocks, threads, 0, stream>>>(xp, mp, op, rows, L);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "kernel launch failed");
    return out;
}
"""

masked_cumsum_cpp_source = "torch::Tensor masked_cumsum_cuda(torch::Tensor x, torch::Tensor mask, int64_t dim, int64_t stream_handle);"

masked_cumsum = load_inline(name="masked_cumsum_sequential_row", cpp_sources=masked_cumsum_cpp_source, cuda_sources=masked_cumsum_source,
                            functions=["masked_cumsum_cuda"], verbose=False, extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return masked_cumsum.masked_cumsum_cuda(x, mask, self.dim, stream)
