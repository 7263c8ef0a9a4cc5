# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor spmm_csr_cuda(torch::Tensor crow, torch::Tensor col, torch::Tensor val, torch::Tensor D);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <climits>
#include <cstdint>
// Strategy: persistent grid-stride warps, one row per warp at a time. A 64-feature slice of the row is
// covered by 16 lanes with float4 loads, so the two half-warps work on different non-zeros (even/odd),
// each half unrolled by two: four independent 16-byte D-row gathers are in flight per warp step.
// (col, val) pairs are fetched 32 at a time (coalesced) and distributed with __shfl_sync; the two
// half-warp partial sums are merged with __shfl_xor_sync(16) at the end. Scalar fallback otherwise.

__global__ void spmm_halfwarp_f4_kernel(const int64_t* __restrict__ crow,
                                        const int64_t* __restrict__ col,
                                        const float* __restrict__ val,
                                        const float4* __restrict__ D4,
                                        float4* __restrict__ out4,
                                        int64_t rows, int G) {      // G = F / 4
    const unsigned FULL = 0xffffffffu;
    const int lane = threadIdx.x & 31;
    const int h = lane >> 4;       // which half-warp: handles non-zeros j with j % 2 == h
    const int q = lane & 15;       // float4 slot inside the 64-feature slice
    const int64_t warps_total = ((int64_t)gridDim.x * blockDim.x) >> 5;
    int64_t row = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const float4 zero4 = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

    for (; row < rows; row += warps_total) {
        const int64_t s = __ldg(crow + row);
        const int64_t e = __ldg(crow + row + 1);
        for (int fb = 0; fb < G; fb += 16) {
            const int quad = fb + q;
            const bool active = quad < G;
            float4 acc = zero4;
            for (int64_t base = s; base < e; base += 32) {
                const int64_t p = base + lane;
                int c = 0;
                float v = 0.0f;
                if (p < e) { c = (int)__ldg(col + p); v = __ldg(val + p); }
                const int n = (int)min((int64_t)32, e - base);
                for (int jj = 0; jj < n; jj += 4) {        // jj <= 28, so jj + 3 <= 31
                    const int j0 = jj + h;
                    const int j1 = jj + 2 + h;
                    const int c0 = __shfl_sync(FULL, c, j0);
                    const float v0 = __shfl_sync(FULL, v, j0);
                    const int c1 = __shfl_sync(FULL, c, j1);
                    const float v1 = __shfl_sync(FULL, v, j1);
                    float4 d0 = zero4, d1 = zero4;
                    if (active && j0 < n) d0 = __ldg(D4 + (int64_t)c0 * G + quad);
                    if (active && j1 < n) d1 = __ldg(D4 + (int64_t)c1 * G + quad);
                    // v0 / v1 are 0 for slots past the row end (p >= e), and d0 / d1 are 0 there too.
                    acc.x = fmaf(v0, d0.x, acc.x); acc.y = fmaf(v0, d0.y, acc.y);
                    acc.z = fmaf(v0, d0.z, acc.z); acc.w = fmaf(v0, d0.w, acc.w);
                    acc.x = fmaf(v1, d1.x, acc.x); acc.y = fmaf(v1, d1.y, acc.y);
                    acc.z = fmaf(v1, d1.z, acc.z); acc.w = fmaf(v1, d1.w, acc.w);
                }
            }
            acc.x += __shfl_xor_sync(FULL, acc.x, 16);
            acc.y += __shfl_xor_sync(FULL, acc.y, 16);
            acc.z += __shfl_xor_sync(FULL, acc.z, 16);
            acc.w += __shfl_xor_sync(FULL, acc.w, 16);
            if (h == 0 && active) out4[row * (int64_t)G + quad] = acc;
        }
    }
}

// Fallback for F % 4 != 0 or misaligned pointers: scalar warp per row.
__global__ void spmm_warp_row_scalar_kernel(const int64_t* __restrict__ crow,
                                            const int64_t* __restrict__ col,
                                            const float* __restrict__ val,
                                            const float* __restrict__ D,
                                            float* __restrict__ out,
                                            int64_t rows, int F) {
    const unsigned FULL = 0xffffffffu;
    int lane = threadIdx.x & 31;
    int64_t row = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= rows) return;
    int64_t s = crow[row];
    int64_t e = crow[row + 1];
    for (int fb = 0; fb < F; fb += 32) {
        int f = fb + lane;
        float acc = 0.0f;
        for (int64_t base = s; base < e; base += 32) {
            int64_t p = base + lane;
            int c = 0;
            float v = 0.0f;
            if (p < e) { c = (int)col[p]; v = val[p]; }
            int n = (int)min((int64_t)32, e - base);
            for (int j = 0; j < n; ++j) {
                int cj = __shfl_sync(FULL, c, j);
                float vj = __shfl_sync(FULL, v, j);
                if (f < F) acc = fmaf(vj, __ldg(D + (int64_t)cj * F + f), acc);
            }
        }
        if (f < F) out[row * (int64_t)F + f] = acc;
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
    const float* dptr = Dc.data_ptr<float>();
    float* optr = out.data_ptr<float>();
    const int threads = 256;
    const int warps_per_block = threads / 32;
    int64_t blocks_needed = (rows + warps_per_block - 1) / warps_per_block;
    bool vec_ok = (F % 4 == 0) && ((reinterpret_cast<uintptr_t>(dptr) & 15) == 0) &&
                  ((reinterpret_cast<uintptr_t>(optr) & 15) == 0);
    if (vec_ok) {
        int dev = Dc.get_device();
        int sms = 0, per_sm = 0;
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, spmm_halfwarp_f4_kernel, threads, 0);
        if (sms <= 0) sms = 1;
        if (per_sm <= 0) per_sm = 1;
        int64_t grid = (int64_t)sms * per_sm;
        if (grid > blocks_needed) grid = blocks_needed;
        spmm_halfwarp_f4_kernel<<<(unsigned int)grid, threads>>>(
            crow_c.data_ptr<int64_t>(), col_c.data_ptr<int64_t>(), val_c.data_ptr<float>(),
            reinterpret_cast<const float4*>(dptr), reinterpret_cast<float4*>(optr), rows, (int)(F / 4));
    } else {
        spmm_warp_row_scalar_kernel<<<(unsigned int)blocks_needed, threads>>>(
            crow_c.data_ptr<int64_t>(), col_c.data_ptr<int64_t>(), val_c.data_ptr<float>(),
            dptr, optr, rows, (int)F);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_spmm_csr_halfwarp_split_float4_persistent",
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
