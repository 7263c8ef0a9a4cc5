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
// Strategy: block-tiled CSR. A block owns RPB consecutive rows; because CSR rows are contiguous, the
// block's whole non-zero range is staged (in chunks of CAP) into shared memory with coalesced loads of
// col/val. Each row is then processed by a group of G = F/4 threads, one float4 of features per
// thread, reading the staged (col, val) pairs as shared-memory broadcasts and D rows with 16-byte
// loads. Falls back to one thread per output when F % 4 != 0, F > 128 or pointers are misaligned.

#define CAP 1024
#define MAX_RPB 64

__global__ void spmm_block_smem_f4_kernel(const int64_t* __restrict__ crow,
                                          const int64_t* __restrict__ col,
                                          const float* __restrict__ val,
                                          const float4* __restrict__ D4,
                                          float4* __restrict__ out4,
                                          int64_t rows, int G, int RPB) {
    __shared__ int64_t s_crow[MAX_RPB + 1];
    __shared__ int s_col[CAP];
    __shared__ float s_val[CAP];

    const int t = threadIdx.x;
    const int nthreads = blockDim.x;          // = G * RPB
    const int64_t r0 = (int64_t)blockIdx.x * RPB;
    const int g = t / G;                       // row inside the block
    const int q = t - g * G;                   // float4 column owned by this thread

    for (int i = t; i <= RPB; i += nthreads) {   // RPB + 1 row pointers (may exceed blockDim)
        int64_t r = r0 + i;
        if (r > rows) r = rows;
        s_crow[i] = crow[r];
    }
    __syncthreads();

    const int64_t blk_s = s_crow[0];
    const int64_t blk_e = s_crow[RPB];
    const int64_t rs = s_crow[g];
    const int64_t re = s_crow[g + 1];

    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int64_t cb = blk_s; cb < blk_e; cb += CAP) {
        int cn = (int)min((int64_t)CAP, blk_e - cb);
        for (int i = t; i < cn; i += nthreads) {
            s_col[i] = (int)col[cb + i];
            s_val[i] = val[cb + i];
        }
        __syncthreads();
        int64_t lo = rs > cb ? rs : cb;
        int64_t hi = re < cb + cn ? re : cb + cn;
        int i = (int)(lo - cb);
        const int iend = (int)(hi - cb);
        for (; i + 1 < iend; i += 2) {
            int ca = s_col[i];
            float va = s_val[i];
            int cb2 = s_col[i + 1];
            float vb = s_val[i + 1];
            float4 da = __ldg(D4 + (int64_t)ca * G + q);
            float4 db = __ldg(D4 + (int64_t)cb2 * G + q);
            acc.x = fmaf(va, da.x, acc.x); acc.y = fmaf(va, da.y, acc.y);
            acc.z = fmaf(va, da.z, acc.z); acc.w = fmaf(va, da.w, acc.w);
            acc.x = fmaf(vb, db.x, acc.x); acc.y = fmaf(vb, db.y, acc.y);
            acc.z = fmaf(vb, db.z, acc.z); acc.w = fmaf(vb, db.w, acc.w);
        }
        if (i < iend) {
            int ca = s_col[i];
            float va = s_val[i];
            float4 da = __ldg(D4 + (int64_t)ca * G + q);
            acc.x = fmaf(va, da.x, acc.x); acc.y = fmaf(va, da.y, acc.y);
            acc.z = fmaf(va, da.z, acc.z); acc.w = fmaf(va, da.w, acc.w);
        }
        __syncthreads();   // staged chunk is overwritten by the next iteration
    }
    int64_t row = r0 + g;
    if (row < rows) out4[row * (int64_t)G + q] = acc;
}

// Fallback: one thread per output element.
__global__ void spmm_scalar_kernel(const int64_t* __restrict__ crow,
                                   const int64_t* __restrict__ col,
                                   const float* __restrict__ val,
                                   const float* __restrict__ D,
                                   float* __restrict__ out,
                                   int64_t rows, int64_t F) {
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= rows * F) return;
    int64_t r = idx / F;
    int64_t f = idx - r * F;
    float acc = 0.0f;
    for (int64_t p = crow[r]; p < crow[r + 1]; ++p) acc = fmaf(val[p], D[col[p] * F + f], acc);
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
    if (rows <= 0 || F <= 0) return out;
    const float* dptr = Dc.data_ptr<float>();
    float* optr = out.data_ptr<float>();
    bool vec_ok = (F % 4 == 0) && (F <= 128) && (Dc.size(0) < (int64_t)INT_MAX) &&
                  ((reinterpret_cast<uintptr_t>(dptr) & 15) == 0) &&
                  ((reinterpret_cast<uintptr_t>(optr) & 15) == 0);
    if (vec_ok) {
        int G = (int)(F / 4);                 // 1..32 threads per row
        int RPB = 256 / G;                     // 8..256 rows per block
        if (RPB > MAX_RPB) RPB = MAX_RPB;
        int threads = G * RPB;
        int64_t blocks = (rows + RPB - 1) / RPB;
        spmm_block_smem_f4_kernel<<<(unsigned int)blocks, threads>>>(
            crow_c.data_ptr<int64_t>(), col_c.data_ptr<int64_t>(), val_c.data_ptr<float>(),
            reinterpret_cast<const float4*>(dptr), reinterpret_cast<float4*>(optr), rows, G, RPB);
    } else {
        const int threads = 256;
        int64_t blocks = (rows * F + threads - 1) / threads;
        spmm_scalar_kernel<<<(unsigned int)blocks, threads>>>(
            crow_c.data_ptr<int64_t>(), col_c.data_ptr<int64_t>(), val_c.data_ptr<float>(),
            dptr, optr, rows, F);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_spmm_csr_block_smem_staged_float4",
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
