# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor L, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// One warp per matrix, lane r owns row r. L is staged into a per-warp padded
// shared-memory tile with coalesced loads; the right-hand sides are processed in
// chunks of 8 columns held in registers. Column-oriented substitution: at step i,
// lane i scales its row by 1/L[i][i], the 8 values are broadcast with __shfl_sync and
// every lane r > i subtracts L[r][i] * x_i. Requires n <= 32 (else scalar fallback).

#define WPB 4
#define LDT 33
#define KC 8

__global__ void __launch_bounds__(WPB * 32)
trsv_warp_row_kernel(const float* __restrict__ L, const float* __restrict__ B,
                     float* __restrict__ X, long long batch, int n, int k) {
    __shared__ float Ls[WPB][32 * LDT];
    const int lane = threadIdx.x & 31;
    const int w = threadIdx.x >> 5;
    const long long m = (long long)blockIdx.x * WPB + w;
    if (m >= batch) return;                 // whole warp leaves together; no block barriers used
    float* Lw = Ls[w];
    const float* Lm = L + m * (long long)n * n;
    const float* Bm = B + m * (long long)n * k;
    float* Xm = X + m * (long long)n * k;

    const int nn = n * n;
    for (int e = lane; e < nn; e += 32) {
        int r = e / n, c = e - r * n;
        Lw[r * LDT + c] = Lm[e];
    }
    __syncwarp();
    const bool active = lane < n;
    const float invd = active ? 1.0f / Lw[lane * LDT + lane] : 0.f;

    for (int c0 = 0; c0 < k; c0 += KC) {
        float b[KC];
#pragma unroll
        for (int j = 0; j < KC; ++j) {
            int c = c0 + j;
            b[j] = (active && c < k) ? Bm[(long long)lane * k + c] : 0.f;
        }
#pragma unroll
        for (int i = 0; i < 32; ++i) {
            if (i < n) {                                  // warp-uniform
                if (lane == i) {
#pragma unroll
                    for (int j = 0; j < KC; ++j) b[j] *= invd;
                }
                const float lri = active ? Lw[lane * LDT + i] : 0.f;
                const bool upd = lane > i;
#pragma unroll
                for (int j = 0; j < KC; ++j) {
                    float xi = __shfl_sync(0xffffffffu, b[j], i);
                    if (upd) b[j] = fmaf(-lri, xi, b[j]);
                }
            }
        }
#pragma unroll
        for (int j = 0; j < KC; ++j) {
            int c = c0 + j;
            if (active && c < k) Xm[(long long)lane * k + c] = b[j];
        }
    }
}

__global__ void trsv_scalar_kernel(const float* __restrict__ L, const float* __restrict__ B,
                                   float* __restrict__ X, long long batch, int n, int k) {
    long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= batch * (long long)k) return;
    long long m = tid / k;
    int c = (int)(tid - m * k);
    const float* Lm = L + m * (long long)n * n;
    const float* Bm = B + m * (long long)n * k;
    float* Xm = X + m * (long long)n * k;
    for (int i = 0; i < n; ++i) {
        float s = Bm[(long long)i * k + c];
        for (int p = 0; p < i; ++p) s -= Lm[(long long)i * n + p] * Xm[(long long)p * k + c];
        Xm[(long long)i * k + c] = s / Lm[(long long)i * n + i];
    }
}

torch::Tensor my_op_cuda(torch::Tensor L, torch::Tensor B) {
    TORCH_CHECK(L.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(L.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 expected");
    TORCH_CHECK(L.dim() == 3 && B.dim() == 3, "expected L (batch, n, n) and B (batch, n, k)");
    TORCH_CHECK(L.size(0) == B.size(0) && L.size(1) == L.size(2) && B.size(1) == L.size(1), "shape mismatch");
    auto Lc = L.contiguous();
    auto Bc = B.contiguous();
    auto out = torch::empty_like(Bc);
    long long batch = Lc.size(0);
    int n = (int)Lc.size(1);
    int k = (int)Bc.size(2);
    if (batch == 0 || n == 0 || k == 0) return out;
    if (n <= 32) {
        long long blocks = (batch + WPB - 1) / WPB;
        trsv_warp_row_kernel<<<(unsigned)blocks, WPB * 32>>>(Lc.data_ptr<float>(), Bc.data_ptr<float>(),
                                                             out.data_ptr<float>(), batch, n, k);
    } else {
        const int threads = 256;
        long long total = batch * (long long)k;
        long long blocks = (total + threads - 1) / threads;
        trsv_scalar_kernel<<<(unsigned)blocks, threads>>>(Lc.data_ptr<float>(), Bc.data_ptr<float>(),
                                                          out.data_ptr<float>(), batch, n, k);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_trsv_batched_warp_row_shfl",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, L: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(L, B)
