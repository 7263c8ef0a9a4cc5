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
// Strategy: warp per row with float2 vectorised feature access. Each lane owns two adjacent features
// (a warp covers 64 features per pass); (col, val) pairs are fetched 32 at a time with one coalesced
// load and broadcast by __shfl_sync, and the non-zero loop is unrolled by two so two D rows are in
// flight per lane. Scalar warp-per-row fallback when F is odd or pointers are not 8-byte aligned.

__global__ void spmm_warp_row_f2_kernel(const int64_t* __restrict__ crow,
                                        const int64_t* __restrict__ col,
                                        const float* __restrict__ val,
                                        const float2* __restrict__ D2,
                                        float2* __restrict__ out2,
                                        int64_t rows, int F2) {   // F2 = F / 2
    const unsigned FULL = 0xffffffffu;
    int lane = threadIdx.x & 31;
    int64_t row = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= rows) return;
    int64_t s = crow[row];
    int64_t e = crow[row + 1];
    for (int fb = 0; fb < F2; fb += 32) {
        int q = fb + lane;
        bool active = q < F2;
        float2 acc = make_float2(0.0f, 0.0f);
        for (int64_t base = s; base < e; base += 32) {
            int64_t p = base + lane;
            int c = 0;
            float v = 0.0f;
            if (p < e) { c = (int)__ldg(col + p); v = __ldg(val + p); }
            int n = (int)min((int64_t)32, e - base);
            int j = 0;
            for (; j + 1 < n; j += 2) {
                int ca = __shfl_sync(FULL, c, j);
                float va = __shfl_sync(FULL, v, j);
                int cb = __shfl_sync(FULL, c, j + 1);
                float vb = __shfl_sync(FULL, v, j + 1);
                if (active) {
                    float2 da = __ldg(D2 + (int64_t)ca * F2 + q);
                    float2 db = __ldg(D2 + (int64_t)cb * F2 + q);
                    acc.x = fmaf(va, da.x, acc.x);
                    acc.y = fmaf(va, da.y, acc.y);
                    acc.x = fmaf(vb, db.x, acc.x);
                    acc.y = fmaf(vb, db.y, acc.y);
                }
            }
            if (j < n) {
                int ca = __shfl_sync(FULL, c, j);
                float va = __shfl_sync(FULL, v, j);
                if (active) {
                    float2 da = __ldg(D2 + (int64_t)ca * F2 + q);
                    acc.x = fmaf(va, da.x, acc.x);
                    acc.y = fmaf(va, da.y, acc.y);
                }
            }
        }
        if (active) out2[row * (int64_t)F2 + q] = acc;
    }
}

// Fallback: scalar warp per row (any F, any alignment).
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
    const int threads = 256;
    const int rows_per_block = threads / 32;
    int64_t blocks = (rows + rows_per_block - 1) / rows_per_block;
    const float* dptr = Dc.data_ptr<float>();
    float* optr = out.data_ptr<float>();
    bool vec_ok = (F % 2 == 0) && ((reinterpret_cast<uintptr_t>(dptr) & 7) == 0) &&
                  ((reinterpret_cast<uintptr_t>(optr) & 7) == 0);
    if (vec_ok) {
        spmm_warp_row_f2_kernel<<<(unsigned int)blocks, threads>>>(
            crow_c.data_ptr<int64_t>(), col_c.data_ptr<int64_t>(), val_c.data_ptr<float>(),
            reinterpret_cast<const float2*>(dptr), reinterpret_cast<float2*>(optr), rows, (int)(F / 2));
    } else {
        spmm_warp_row_scalar_kernel<<<(unsigned int)blocks, threads>>>(
            crow_c.data_ptr<int64_t>(), col_c.data_ptr<int64_t>(), val_c.data_ptr<float>(),
            dptr, optr, rows, (int)F);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_spmm_csr_warp_row_float2",
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
