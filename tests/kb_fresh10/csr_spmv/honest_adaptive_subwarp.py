# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor csr_spmv_cuda(torch::Tensor crow, torch::Tensor col, torch::Tensor values, torch::Tensor x, int64_t num_rows);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <algorithm>
// Adaptive CSR-vector: a group of TPR lanes (2..32, chosen on the host from the mean row length)
// handles one row, several rows per warp; read-only loads through __ldg; segmented shuffle reduction
// of width TPR; grid-stride loop over warp-sized batches of rows so the loop stays warp-uniform.

template <int TPR>
__global__ void spmv_subwarp_kernel(const int64_t* __restrict__ crow,
                                    const int64_t* __restrict__ col,
                                    const float* __restrict__ values,
                                    const float* __restrict__ x,
                                    float* __restrict__ y,
                                    int64_t num_rows) {
    constexpr int ROWS_PER_WARP = 32 / TPR;
    const int lane = threadIdx.x & 31;
    const int sub = lane & (TPR - 1);          // lane inside its row group
    const int grp = lane / TPR;                // row group inside the warp
    const int64_t warp_id = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int64_t num_warps = ((int64_t)gridDim.x * blockDim.x) >> 5;
    const long long* col_ll = reinterpret_cast<const long long*>(col);
    const long long* crow_ll = reinterpret_cast<const long long*>(crow);

    for (int64_t base = warp_id * ROWS_PER_WARP; base < num_rows; base += num_warps * ROWS_PER_WARP) {
        const int64_t row = base + grp;
        int64_t start = 0, end = 0;
        if (row < num_rows) {
            start = __ldg(crow_ll + row);
            end = __ldg(crow_ll + row + 1);
        }
        float sum = 0.0f;
        for (int64_t j = start + sub; j < end; j += TPR) {
            sum += __ldg(values + j) * __ldg(x + __ldg(col_ll + j));
        }
        // every lane of the warp reaches this point (loop bound above is warp-uniform)
        #pragma unroll
        for (int off = TPR / 2; off > 0; off >>= 1) {
            sum += __shfl_down_sync(0xffffffffu, sum, off, TPR);
        }
        if (sub == 0 && row < num_rows) y[row] = sum;
    }
}

template <int TPR>
static void launch_subwarp(const int64_t* crow, const int64_t* col, const float* values, const float* x,
                           float* y, int64_t num_rows, int sm_count) {
    const int threads = 256;
    const int64_t rows_per_block = (threads / 32) * (32 / TPR);
    int64_t blocks = (num_rows + rows_per_block - 1) / rows_per_block;
    const int64_t cap = (int64_t)sm_count * 16;
    blocks = std::max<int64_t>(1, std::min(blocks, cap));
    spmv_subwarp_kernel<TPR><<<(unsigned)blocks, threads>>>(crow, col, values, x, y, num_rows);
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

    int dev = 0, sm_count = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev);
    if (sm_count <= 0) sm_count = 1;

    // nnz is known on the host from col's length (== crow[num_rows] for a valid CSR matrix).
    const double mean = (double)col_c.numel() / (double)num_rows;
    const double want = mean / 4.0;            // aim for roughly 4 nonzeros per lane
    int tpr = 2;
    while (tpr < 32 && (double)tpr < want) tpr <<= 1;

    const int64_t* cp = crow_c.data_ptr<int64_t>();
    const int64_t* ip = col_c.data_ptr<int64_t>();
    const float* vp = val_c.data_ptr<float>();
    const float* xp = x_c.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    switch (tpr) {
        case 2:  launch_subwarp<2>(cp, ip, vp, xp, yp, num_rows, sm_count); break;
        case 4:  launch_subwarp<4>(cp, ip, vp, xp, yp, num_rows, sm_count); break;
        case 8:  launch_subwarp<8>(cp, ip, vp, xp, yp, num_rows, sm_count); break;
        case 16: launch_subwarp<16>(cp, ip, vp, xp, yp, num_rows, sm_count); break;
        default: launch_subwarp<32>(cp, ip, vp, xp, yp, num_rows, sm_count); break;
    }
    return y;
}
"""

my_mod = load_inline(
    name="s44_csr_adaptive_subwarp",
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
