# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor L, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// One thread per (matrix, rhs column), row-oriented forward substitution with the
// solution vector kept in registers (loops fully unrolled for n <= 32) and the
// lower-triangular part of each row of L fetched with float4 __ldg loads
// (only the float4 chunks that touch columns <= i are read).
// Falls back to a plain scalar kernel when n > 32 or n % 4 != 0.

template <int NMAX>
__global__ void __launch_bounds__(128)
trsv_thread_regs_kernel(const float* __restrict__ L, const float* __restrict__ B,
                        float* __restrict__ X, long long batch, int n, int k) {
    long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= batch * (long long)k) return;
    long long m = tid / k;
    int c = (int)(tid - m * k);
    const int n4 = n >> 2;
    const float4* Lm4 = reinterpret_cast<const float4*>(L + m * (long long)n * n);
    const float* Bm = B + m * (long long)n * k + c;
    float* Xm = X + m * (long long)n * k + c;

    float x[NMAX];
#pragma unroll
    for (int i = 0; i < NMAX; ++i) {
        x[i] = 0.f;
        if (i < n) {
            float s = __ldg(Bm + (long long)i * k);
            float diag = 1.f;
            const float4* row = Lm4 + i * n4;
#pragma unroll
            for (int q = 0; q <= i / 4; ++q) {
                float4 v = __ldg(row + q);
                const float lv[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const int p = 4 * q + j;
                    if (p < i) s = fmaf(-lv[j], x[p], s);
                    else if (p == i) diag = lv[j];
                }
            }
            x[i] = s / diag;
            Xm[(long long)i * k] = x[i];
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
    long long total = batch * (long long)k;
    if (total == 0 || n == 0) return out;
    const float* Lp = Lc.data_ptr<float>();
    bool vec_ok = (n <= 32) && (n % 4 == 0) && ((reinterpret_cast<uintptr_t>(Lp) & 15) == 0);
    const int threads = 128;
    long long blocks = (total + threads - 1) / threads;
    if (vec_ok) {
        trsv_thread_regs_kernel<32><<<(unsigned)blocks, threads>>>(Lp, Bc.data_ptr<float>(),
                                                                   out.data_ptr<float>(), batch, n, k);
    } else {
        trsv_scalar_kernel<<<(unsigned)blocks, threads>>>(Lp, Bc.data_ptr<float>(),
                                                          out.data_ptr<float>(), batch, n, k);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_trsv_batched_thread_rhs_registers_ldg",
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
