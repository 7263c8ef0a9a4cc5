# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor spmm_csr_cuda(torch::Tensor crow, torch::Tensor col, torch::Tensor val, torch::Tensor D);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <climits>
// Strategy: non-zero-parallel scatter, mirroring the reference's index_add: first expand the CSR row
// pointer into a per-non-zero row id (COO), then one thread per (non-zero, feature) adds
// val * D[col, f] into the zero-initialised output with atomicAdd.

__global__ void expand_rows_kernel(const int64_t* __restrict__ crow, int* __restrict__ rowidx, int64_t rows) {
    int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    int64_t s = crow[r];
    int64_t e = crow[r + 1];
    for (int64_t p = s; p < e; ++p) rowidx[p] = (int)r;
}

__global__ void coo_scatter_kernel(const int* __restrict__ rowidx,
                                   const int64_t* __restrict__ col,
                                   const float* __restrict__ val,
                                   const float* __restrict__ D,
                                   float* __restrict__ out,
                                   int64_t nnz, int64_t F) {
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= nnz * F) return;
    int64_t p = idx / F;
    int64_t f = idx - p * F;
    int64_t r = rowidx[p];
    int64_t c = col[p];
    float contrib = val[p] * D[c * F + f];
    atomicAdd(out + r * F + f, contrib);
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
    int64_t nnz = col_c.numel();
    TORCH_CHECK(rows < (int64_t)INT_MAX, "too many rows for int32 row ids");
    auto out = torch::zeros({rows, F}, Dc.options());
    if (rows <= 0 || F <= 0 || nnz <= 0) return out;
    auto rowidx = torch::empty({nnz}, Dc.options().dtype(torch::kInt32));

    const int threads = 256;
    int64_t blocks_r = (rows + threads - 1) / threads;
    expand_rows_kernel<<<(unsigned int)blocks_r, threads>>>(crow_c.data_ptr<int64_t>(), rowidx.data_ptr<int>(), rows);

    int64_t total = nnz * F;
    int64_t blocks = (total + threads - 1) / threads;
    coo_scatter_kernel<<<(unsigned int)blocks, threads>>>(
        rowidx.data_ptr<int>(), col_c.data_ptr<int64_t>(), val_c.data_ptr<float>(),
        Dc.data_ptr<float>(), out.data_ptr<float>(), nnz, F);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_spmm_csr_coo_atomic_scatter",
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
