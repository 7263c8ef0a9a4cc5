# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor spmm_csr_cuda(torch::Tensor crow, torch::Tensor col, torch::Tensor val, torch::Tensor D);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <climits>
// Strategy: one warp per sparse row. The warp loads up to 32 (col, val) pairs of the row with one
// coalesced load, then broadcasts them one at a time with __shfl_sync; lanes cover the feature
// dimension (two 32-wide feature slots per pass) so every D row read is a coalesced warp access.

__global__ void spmm_warp_row_kernel(const int64_t* __restrict__ crow,
                                     const int64_t* __restrict__ col,
                                     const float* __restrict__ val,
                                     const float* __restrict__ D,
                                     float* __restrict__ out,
                                     int64_t rows, int F) {
    const unsigned FULL = 0xffffffffu;
    int lane = threadIdx.x & 31;
    int64_t row = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= rows) return;  // whole warp leaves together
    int64_t s = crow[row];
    int64_t e = crow[row + 1];
    for (int fb = 0; fb < F; fb += 64) {
        int f0 = fb + lane;
        int f1 = fb + 32 + lane;
        float acc0 = 0.0f, acc1 = 0.0f;
        for (int64_t base = s; base < e; base += 32) {
            int64_t p = base + lane;
            int c = 0;
            float v = 0.0f;
            if (p < e) { c = (int)col[p]; v = val[p]; }
            int n = (int)min((int64_t)32, e - base);
            for (int j = 0; j < n; ++j) {
                int cj = __shfl_sync(FULL, c, j);
                float vj = __shfl_sync(FULL, v, j);
                const float* drow = D + (int64_t)cj * F;
                if (f0 < F) acc0 = fmaf(vj, __ldg(drow + f0), acc0);
                if (f1 < F) acc1 = fmaf(vj, __ldg(drow + f1), acc1);
            }
        }
        float* orow = out + row * (int64_t)F;
        if (f0 < F) orow[f0] = acc0;
        if (f1 < F) orow[f1] = acc1;
    }
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
    TORCH_CHECK(Dc.size(0) < (int64_t)INT_MAX && F < (int64_t)INT_MAX - 64, "sizes too large for int32 indexing");
    auto out = torch::empty({rows, F}, Dc.options());
    if (rows <= 0 || F <= 0) return out;
    const int threads = 256;                  // 8 warps = 8 rows per block
    const int rows_per_block = threads / 32;
    int64_t blocks = (rows + rows_per_block - 1) / rows_per_block;
    spmm_warp_row_kernel<<<(unsigned int)blocks, threads>>>(
        crow_c.data_ptr<int64_t>(), col_c.data_ptr<int64_t>(), val_c.data_ptr<float>(),
        Dc.data_ptr<float>(), out.data_ptr<float>(), rows, (int)F);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_spmm_csr_warp_per_row_shfl",
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
