# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor spmm_csr_cuda(torch::Tensor crow, torch::Tensor col, torch::Tensor val, torch::Tensor D);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: naive CSR SpMM, one thread per output element out[r, f]; each thread walks the
// non-zeros of row r and accumulates val * D[col, f] in a register. Index/value loads are
// repeated by every thread of the row (no reuse beyond the caches).

__global__ void spmm_thread_per_output_kernel(const int64_t* __restrict__ crow,
                                              const int64_t* __restrict__ col,
                                              const float* __restrict__ val,
                                              const float* __restrict__ D,
                                              float* __restrict__ out,
                                              int64_t rows, int64_t F) {
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t total = rows * F;
    if (idx >= total) return;
    int64_t r = idx / F;
    int64_t f = idx - r * F;
    int64_t s = crow[r];
    int64_t e = crow[r + 1];
    float acc = 0.0f;
    for (int64_t p = s; p < e; ++p) {
        acc += val[p] * D[col[p] * F + f];
    }
    out[idx] = acc;
}

torch::Tensor spmm_csr_cuda(torch::Tensor crow, torch::Tensor col, torch::Tensor val, torch::Tensor D) {
    TORCH_CHECK(crow.is_cuda() && col.is_cuda() && val.is_cuda() && D.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(crow.scalar_type() == torch::kInt64 && col.scalar_type() == torch::kInt64, "indices must be int64");
    TORCH_CHECK(val.scalar_type() == torch::kFloat32 && D.scalar_type() == torch::kFloat32, "values must be float32");
    TORCH_CHECK(D.dim() == 2, "D must be 2-D");
    auto crow_c = crow.contiguous();
    auto col_c = col.contiguous();
    auto val_c = val.contiguous();
    auto Dc = D.contiguous();
    int64_t rows = crow_c.numel() - 1;
    int64_t F = Dc.size(1);
    auto out = torch::empty({rows, F}, Dc.options());
    int64_t total = rows * F;
    if (total <= 0) return out;
    const int threads = 256;
    int64_t blocks = (total + threads - 1) / threads;
    spmm_thread_per_output_kernel<<<(unsigned int)blocks, threads>>>(
        crow_c.data_ptr<int64_t>(), col_c.data_ptr<int64_t>(), val_c.data_ptr<float>(),
        Dc.data_ptr<float>(), out.data_ptr<float>(), rows, F);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_spmm_csr_thread_per_output",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["spmm_csr_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, crow: torch.Tensor, col: torch.Tensor, val: torch.Tensor, D: torch.Tensor) -> torch.Tensor:
        return my_mod.spmm_csr_cuda(crow, col, val, D)
