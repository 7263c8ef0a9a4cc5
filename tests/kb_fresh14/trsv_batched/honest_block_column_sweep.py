# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor L, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// One thread block per matrix. L (padded rows) and B are staged in shared memory
// with coalesced loads; then a right-looking (column-oriented) sweep: at step i every
// thread owning an element (r, c) of B with r > i subtracts L[r][i] * x_i[c].
// One __syncthreads per step; rows are scaled by 1/L[r][r] on the final store.
// Falls back to a scalar per-thread kernel when the matrices do not fit in shared memory.

__global__ void trsv_block_sweep_kernel(const float* __restrict__ L, const float* __restrict__ B,
                                        float* __restrict__ X, int n, int k) {
    extern __shared__ float smem[];
    const int ldl = n + 1;                 // padded row stride for L
    float* Ls = smem;                      // n * (n + 1)
    float* Bs = Ls + n * ldl;              // n * k
    float* invd = Bs + n * k;              // n
    const long long m = blockIdx.x;
    const float* Lm = L + m * (long long)n * n;
    const float* Bm = B + m * (long long)n * k;
    float* Xm = X + m * (long long)n * k;
    const int nn = n * n, nk = n * k;

    for (int e = threadIdx.x; e < nn; e += blockDim.x) {
        int r = e / n, c = e - r * n;
        Ls[r * ldl + c] = Lm[e];
    }
    for (int e = threadIdx.x; e < nk; e += blockDim.x) Bs[e] = Bm[e];
    __syncthreads();
    for (int r = threadIdx.x; r < n; r += blockDim.x) invd[r] = 1.0f / Ls[r * ldl + r];
    __syncthreads();

    // Bs rows <= i hold the (unscaled) final values after step i-1.
    for (int i = 0; i < n - 1; ++i) {
        const float di = invd[i];
        for (int e = threadIdx.x; e < nk; e += blockDim.x) {
            int r = e / k;
            if (r > i) {
                int c = e - r * k;
                float xi = Bs[i * k + c] * di;
                Bs[e] = fmaf(-Ls[r * ldl + i], xi, Bs[e]);
            }
        }
        __syncthreads();
    }
    for (int e = threadIdx.x; e < nk; e += blockDim.x) {
        int r = e / k;
        Xm[e] = Bs[e] * invd[r];
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
    size_t smem = ((size_t)n * (n + 1) + (size_t)n * k + n) * sizeof(float);
    if (smem <= 48 * 1024 && batch <= 2147483647LL) {
        int nk = n * k;
        int threads = ((nk + 31) / 32) * 32;
        if (threads > 512) threads = 512;
        if (threads < 32) threads = 32;
        trsv_block_sweep_kernel<<<(unsigned)batch, threads, smem>>>(Lc.data_ptr<float>(), Bc.data_ptr<float>(),
                                                                    out.data_ptr<float>(), n, k);
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
    name="kbf14_trsv_batched_block_column_sweep",
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
