# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor csr_spmv_cuda(torch::Tensor crow, torch::Tensor col, torch::Tensor values, torch::Tensor x, int64_t num_rows);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// CSR-vector: one warp per row. Lanes stride through the row's nonzeros (coalesced col/value loads),
// then the 32 partial sums are combined with a shuffle-down tree and lane 0 writes y[row].

__global__ void spmv_warp_per_row_kernel(const int64_t* __restrict__ crow,
                                         const int64_t* __restrict__ col,
                                         const float* __restrict__ values,
                                         const float* __restrict__ x,
                                         float* __restrict__ y,
                                         int64_t num_rows) {
    const int64_t row = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (row >= num_rows) return;  // uniform for the whole warp
    const int64_t start = crow[row];
    const int64_t end = crow[row + 1];
    float sum = 0.0f;
    for (int64_t j = start + lane; j < end; j += 32) {
        sum += values[j] * x[col[j]];
    }
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    }
    if (lane == 0) y[row] = sum;
}

torch::Tensor csr_spmv_cuda(torch::Tensor crow, torch::Tensor col, torch::Tensor values, torch::Tensor x, int64_t num_rows) {
    TORCH_CHECK(crow.is_cuda() && col.is_cuda() && values.is_cuda() && x.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(crow.scalar_type() == torch::kInt64 && col.scalar_type() == torch::kInt64, "crow/col must be int64");
    TORCH_CHECK(values.scalar_type() == torch::kFloat32 && x.scalar_type() == torch::kFloat32, "values/x must be float32");
    TORCH_CHECK(crow.numel() == num_rows + 1, "crow must have num_rows + 1 entries");
    auto crow_c = crow.contiguous();
    auto col_c = col.contiguous();
    auto val_c = values.contiguous();
    auto x_c = x.contiguous();
    auto y = torch::empty({num_rows}, x_c.options());
    if (num_rows == 0) return y;
    const int threads = 256;                 // 8 rows per block
    const int64_t rows_per_block = threads / 32;
    const int64_t blocks = (num_rows + rows_per_block - 1) / rows_per_block;
    spmv_warp_per_row_kernel<<<(unsigned)blocks, threads>>>(
        crow_c.data_ptr<int64_t>(), col_c.data_ptr<int64_t>(), val_c.data_ptr<float>(),
        x_c.data_ptr<float>(), y.data_ptr<float>(), num_rows);
    return y;
}
"""

my_mod = load_inline(
    name="s44_csr_warp_per_row",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["csr_spmv_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_rows: int, num_cols: int):
        super().__init__()
        self.num_rows = num_rows
        self.num_cols = num_cols

    def forward(self, crow: torch.Tensor, col: torch.Tensor, values: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return my_mod.csr_spmv_cuda(crow, col, values, x, self.num_rows)
