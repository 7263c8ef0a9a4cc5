# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor csr_spmv_cuda(torch::Tensor crow, torch::Tensor col, torch::Tensor values, torch::Tensor x, int64_t num_rows);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// CSR-Stream (as in CSR-Adaptive): a block owns ROWS_PER_BLOCK consecutive rows. All threads stream the
// block's contiguous nonzero range in chunks, computing values[j] * x[col[j]] with fully coalesced loads
// into shared memory; after a barrier each thread adds up the part of its own row that lies in the chunk.

#define ROWS_PER_BLOCK 256   // == blockDim.x
#define CHUNK 4096           // products staged per pass (16 KB)

__global__ void __launch_bounds__(ROWS_PER_BLOCK)
spmv_csr_stream_kernel(const int64_t* __restrict__ crow,
                       const int64_t* __restrict__ col,
                       const float* __restrict__ values,
                       const float* __restrict__ x,
                       float* __restrict__ y,
                       int64_t num_rows) {
    __shared__ float prod[CHUNK];
    __shared__ long long srow[ROWS_PER_BLOCK + 1];

    const int tid = threadIdx.x;
    const int64_t row0 = (int64_t)blockIdx.x * ROWS_PER_BLOCK;
    const int64_t left = num_rows - row0;
    const int nrows = (int)(left < ROWS_PER_BLOCK ? left : ROWS_PER_BLOCK);

    for (int i = tid; i <= nrows; i += ROWS_PER_BLOCK) srow[i] = crow[row0 + i];
    __syncthreads();

    const long long block_begin = srow[0];
    const long long block_end = srow[nrows];
    long long my_begin = 0, my_end = 0;
    if (tid < nrows) {
        my_begin = srow[tid];
        my_end = srow[tid + 1];
    }

    float sum = 0.0f;
    for (long long cbeg = block_begin; cbeg < block_end; cbeg += CHUNK) {
        const long long cend = (cbeg + CHUNK < block_end) ? (cbeg + CHUNK) : block_end;
        const int clen = (int)(cend - cbeg);
        // coalesced streaming pass over the chunk
        for (int k = tid; k < clen; k += ROWS_PER_BLOCK) {
            const long long j = cbeg + k;
            prod[k] = __ldg(values + j) * __ldg(x + col[j]);
        }
        __syncthreads();
        // per-row reduction over the overlap of this thread's row with the chunk
        const long long lo = my_begin > cbeg ? my_begin : cbeg;
        const long long hi = my_end < cend ? my_end : cend;
        for (long long j = lo; j < hi; ++j) sum += prod[j - cbeg];
        __syncthreads();   // prod is overwritten in the next pass
    }
    if (tid < nrows) y[row0 + tid] = sum;
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
    const int64_t blocks = (num_rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK;
    spmv_csr_stream_kernel<<<(unsigned)blocks, ROWS_PER_BLOCK>>>(
        crow_c.data_ptr<int64_t>(), col_c.data_ptr<int64_t>(), val_c.data_ptr<float>(),
        x_c.data_ptr<float>(), y.data_ptr<float>(), num_rows);
    return y;
}
"""

my_mod = load_inline(
    name="s44_csr_stream_smem",
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
