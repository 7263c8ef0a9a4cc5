# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor csr_spmv_cuda(torch::Tensor crow, torch::Tensor col, torch::Tensor values, torch::Tensor x, int64_t num_rows);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Merge-path SpMV (Merrill & Garland): the merge of the row-end list crow[1..] with the nonzero indices
// 0..nnz-1 is cut into equal pieces of ITEMS_PER_THREAD items, one per thread, so every thread gets the same
// amount of rows + nonzeros regardless of the row-length distribution. Each thread finds its start/end
// coordinates by a binary search along its diagonal, writes every row that ends inside its piece, and emits a
// carry (row, partial sum) for the row that continues past it; a second kernel adds the carries.

#define ITEMS_PER_THREAD 8

__device__ __forceinline__ void merge_path_search(long long diag, const long long* __restrict__ row_end,
                                                  long long num_rows, long long nnz,
                                                  long long& out_row, long long& out_nz) {
    long long lo = diag - nnz > 0 ? diag - nnz : 0;
    long long hi = diag < num_rows ? diag : num_rows;
    while (lo < hi) {
        const long long mid = (lo + hi) >> 1;
        // take the row end first when row_end[mid] <= (nonzero index diag - mid - 1)
        if (__ldg(row_end + mid) <= diag - mid - 1) lo = mid + 1;
        else hi = mid;
    }
    out_row = lo;
    out_nz = diag - lo;
}

__global__ void spmv_merge_path_kernel(const long long* __restrict__ crow,
                                       const long long* __restrict__ col,
                                       const float* __restrict__ values,
                                       const float* __restrict__ x,
                                       float* __restrict__ y,
                                       long long num_rows, long long nnz, long long num_threads,
                                       long long* __restrict__ carry_row,
                                       float* __restrict__ carry_val) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= num_threads) return;
    const long long total = num_rows + nnz;
    const long long* row_end = crow + 1;
    long long d0 = tid * ITEMS_PER_THREAD;
    if (d0 > total) d0 = total;
    long long d1 = d0 + ITEMS_PER_THREAD;
    if (d1 > total) d1 = total;

    long long r, j, r_end, j_end;
    merge_path_search(d0, row_end, num_rows, nnz, r, j);
    merge_path_search(d1, row_end, num_rows, nnz, r_end, j_end);

    float sum = 0.0f;
    // rows that end inside this thread's piece
    for (; r < r_end; ++r) {
        const long long re = __ldg(row_end + r);
        for (; j < re; ++j) sum += __ldg(values + j) * __ldg(x + __ldg(col + j));
        y[r] = sum;
        sum = 0.0f;
    }
    // leading part of the row that continues into the next piece
    for (; j < j_end; ++j) sum += __ldg(values + j) * __ldg(x + __ldg(col + j));
    carry_row[tid] = r_end;
    carry_val[tid] = sum;
}

__global__ void spmv_carry_fixup_kernel(const long long* __restrict__ carry_row,
                                        const float* __restrict__ carry_val,
                                        long long num_threads, long long num_rows,
                                        float* __restrict__ y) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= num_threads) return;
    const long long r = carry_row[tid];
    const float v = carry_val[tid];
    if (r < num_rows && v != 0.0f) atomicAdd(y + r, v);
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

    const long long nnz = col_c.numel();   // == crow[num_rows] for a valid CSR matrix
    const long long total = (long long)num_rows + nnz;
    const long long num_threads = (total + ITEMS_PER_THREAD - 1) / ITEMS_PER_THREAD;
    auto carry_row = torch::empty({num_threads}, crow_c.options());
    auto carry_val = torch::empty({num_threads}, x_c.options());

    const int threads = 256;
    const long long blocks = (num_threads + threads - 1) / threads;
    spmv_merge_path_kernel<<<(unsigned)blocks, threads>>>(
        reinterpret_cast<const long long*>(crow_c.data_ptr<int64_t>()),
        reinterpret_cast<const long long*>(col_c.data_ptr<int64_t>()),
        val_c.data_ptr<float>(), x_c.data_ptr<float>(), y.data_ptr<float>(),
        (long long)num_rows, nnz, num_threads,
        reinterpret_cast<long long*>(carry_row.data_ptr<int64_t>()), carry_val.data_ptr<float>());
    spmv_carry_fixup_kernel<<<(unsigned)blocks, threads>>>(
        reinterpret_cast<const long long*>(carry_row.data_ptr<int64_t>()), carry_val.data_ptr<float>(),
        num_threads, (long long)num_rows, y.data_ptr<float>());
    return y;
}
"""

my_mod = load_inline(
    name="s44_csr_merge_path",
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
