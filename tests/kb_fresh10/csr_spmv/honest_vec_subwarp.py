# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor csr_spmv_cuda(torch::Tensor crow, torch::Tensor col, torch::Tensor values, torch::Tensor x, int64_t num_rows);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <algorithm>
// Vectorised sub-warp CSR: 8 lanes per row, 4 rows per warp. The row's nonzeros are read as aligned pairs
// (longlong2 column indices + float2 values, one 16 B + 8 B load per lane per step) with a scalar head element
// when the row starts at an odd offset and a scalar tail when an odd count remains; two independent
// accumulators, x gathered through the read-only path, width-8 shuffle reduction, persistent warps sized by
// the occupancy API.

#define TPR 8
#define ROWS_PER_WARP (32 / TPR)

template <bool VEC>
__global__ void
spmv_vec_subwarp_kernel(const long long* __restrict__ crow,
                        const long long* __restrict__ col,
                        const float* __restrict__ values,
                        const float* __restrict__ x,
                        float* __restrict__ y,
                        long long num_rows) {
    const int lane = threadIdx.x & 31;
    const int sub = lane & (TPR - 1);
    const int grp = lane / TPR;
    const long long warp_id = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const long long num_warps = ((long long)gridDim.x * blockDim.x) >> 5;

    for (long long base = warp_id * ROWS_PER_WARP; base < num_rows; base += num_warps * ROWS_PER_WARP) {
        const long long row = base + grp;
        long long start = 0, end = 0;
        if (row < num_rows) {
            start = __ldg(crow + row);
            end = __ldg(crow + row + 1);
        }
        float s0 = 0.0f, s1 = 0.0f;
        if (VEC) {
            long long a = start + (start & 1);     // first even (16 B aligned) position
            if (a > end) a = end;
            if (sub == 0 && a > start) {           // odd leading element (only when start < end)
                s0 += __ldg(values + start) * __ldg(x + __ldg(col + start));
            }
            const long long npairs = (end - a) >> 1;
            const longlong2* col2 = reinterpret_cast<const longlong2*>(col + a);
            const float2* val2 = reinterpret_cast<const float2*>(values + a);
            for (long long p = sub; p < npairs; p += TPR) {
                const longlong2 c = __ldg(col2 + p);
                const float2 v = __ldg(val2 + p);
                s0 += v.x * __ldg(x + c.x);
                s1 += v.y * __ldg(x + c.y);
            }
            if (sub == 1 && ((end - a) & 1)) {     // odd trailing element
                const long long t = end - 1;
                s1 += __ldg(values + t) * __ldg(x + __ldg(col + t));
            }
        } else {
            long long j = start + sub;
            for (; j + TPR < end; j += 2 * TPR) {
                s0 += __ldg(values + j) * __ldg(x + __ldg(col + j));
                s1 += __ldg(values + j + TPR) * __ldg(x + __ldg(col + j + TPR));
            }
            if (j < end) s0 += __ldg(values + j) * __ldg(x + __ldg(col + j));
        }
        float sum = s0 + s1;
        #pragma unroll
        for (int off = TPR / 2; off > 0; off >>= 1) {
            sum += __shfl_down_sync(0xffffffffu, sum, off, TPR);
        }
        if (sub == 0 && row < num_rows) y[row] = sum;
    }
}

template <bool VEC>
static void launch_vec(const long long* crow, const long long* col, const float* values, const float* x,
                       float* y, long long num_rows) {
    const int threads = 256;
    int dev = 0, sm_count = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, spmv_vec_subwarp_kernel<VEC>, threads, 0);
    if (sm_count <= 0) sm_count = 1;
    if (per_sm <= 0) per_sm = 1;
    const long long rows_per_block = (threads / 32) * ROWS_PER_WARP;
    long long blocks = (num_rows + rows_per_block - 1) / rows_per_block;
    blocks = std::max<long long>(1, std::min<long long>(blocks, (long long)sm_count * per_sm));
    spmv_vec_subwarp_kernel<VEC><<<(unsigned)blocks, threads>>>(crow, col, values, x, y, num_rows);
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

    const long long* cp = reinterpret_cast<const long long*>(crow_c.data_ptr<int64_t>());
    const long long* ip = reinterpret_cast<const long long*>(col_c.data_ptr<int64_t>());
    const float* vp = val_c.data_ptr<float>();
    const float* xp = x_c.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    // pairs are read at even element offsets, so the bases must be 16 B (col) and 8 B (values) aligned
    const bool aligned = (reinterpret_cast<uintptr_t>(ip) % 16 == 0) && (reinterpret_cast<uintptr_t>(vp) % 8 == 0);
    if (aligned) launch_vec<true>(cp, ip, vp, xp, yp, (long long)num_rows);
    else launch_vec<false>(cp, ip, vp, xp, yp, (long long)num_rows);
    return y;
}
"""

my_mod = load_inline(
    name="s44_csr_vec_subwarp",
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
