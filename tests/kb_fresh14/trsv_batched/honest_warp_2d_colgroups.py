# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor L, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// One warp per matrix with a 2-D lane layout: lane = c + 8*g owns right-hand-side
// column c (of a chunk of 8) for the 8 consecutive rows 8g..8g+7, kept in registers.
// L is stored transposed in a padded per-warp shared tile (Lt[col][row]) so that the
// column L[:, i] needed at step i is a contiguous, conflict-free read. Only ONE shuffle
// per step: every lane fetches x_i for its own column from the lane that owns row i.
// B and X are read/written with coalesced accesses (consecutive lanes = consecutive
// columns). Requires n <= 32 (else scalar fallback).

#define WPB 4
#define LDT 33
#define KC 8

__global__ void __launch_bounds__(WPB * 32)
trsv_warp2d_kernel(const float* __restrict__ L, const float* __restrict__ B,
                   float* __restrict__ X, long long batch, int n, int k) {
    __shared__ float Lt[WPB][32 * LDT];
    __shared__ float inv[WPB][32];
    const int lane = threadIdx.x & 31;
    const int w = threadIdx.x >> 5;
    const long long m = (long long)blockIdx.x * WPB + w;
    if (m >= batch) return;                 // warp-uniform exit, no block barriers used
    float* Lw = Lt[w];
    const float* Lm = L + m * (long long)n * n;
    const float* Bm = B + m * (long long)n * k;
    float* Xm = X + m * (long long)n * k;

    if (n < 32) {                           // zero padding so rows >= n never contribute
        for (int e = lane; e < 32 * LDT; e += 32) Lw[e] = 0.f;
        __syncwarp();
    }
    const int nn = n * n;
    for (int e = lane; e < nn; e += 32) {
        int r = e / n, c = e - r * n;
        Lw[c * LDT + r] = Lm[e];           // transposed store
    }
    __syncwarp();
    if (lane < n) inv[w][lane] = 1.0f / Lw[lane * LDT + lane];
    __syncwarp();

    const int c = lane & 7;
    const int g = lane >> 3;
    const int r0 = g * 8;

    for (int c0 = 0; c0 < k; c0 += KC) {
        const int col = c0 + c;
        const bool colok = col < k;
        float b[8];
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            int r = r0 + j;
            b[j] = (colok && r < n) ? Bm[(long long)r * k + col] : 0.f;
        }
#pragma unroll
        for (int i = 0; i < 32; ++i) {
            if (i < n) {                                // warp-uniform
                const int go = i >> 3, jo = i & 7;      // compile-time after unrolling
                if (g == go) b[jo] *= inv[w][i];
                const float xi = __shfl_sync(0xffffffffu, b[jo], c + 8 * go);
                const float* Lcol = Lw + i * LDT + r0;  // Lt[i][r0 .. r0+7] = L[r0..r0+7][i]
#pragma unroll
                for (int j = 0; j < 8; ++j) {
                    if (r0 + j > i) b[j] = fmaf(-Lcol[j], xi, b[j]);
                }
            }
        }
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            int r = r0 + j;
            if (colok && r < n) Xm[(long long)r * k + col] = b[j];
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
        trsv_warp2d_kernel<<<(unsigned)blocks, WPB * 32>>>(Lc.data_ptr<float>(), Bc.data_ptr<float>(),
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
    name="kbf14_trsv_batched_warp_2d_colgroups",
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
