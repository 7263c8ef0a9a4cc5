# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cdist_v4_cpp = "torch::Tensor cdist_v4_forward(torch::Tensor x, torch::Tensor y);"

cdist_v4_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

// 64x64 output tile, 256 threads each owning a 4x4 register block (direct (x-y)^2).
// VEC path: float4 global loads (needs D % 4 == 0 and 16-byte aligned bases), float4
// shared-memory reads and float4 output stores (needs N % 4 == 0). Otherwise the same
// kernel runs with scalar loads/stores.
#define BM 64
#define BN 64
#define BK 16
#define PAD 4

template <bool VEC>
__global__ void __launch_bounds__(256)
cdist_v4_kernel(const float* __restrict__ x, const float* __restrict__ y,
                float* __restrict__ out, int M, int N, int D) {
    __shared__ __align__(16) float xs[BK][BM + PAD];
    __shared__ __align__(16) float ys[BK][BN + PAD];
    const int tid = threadIdx.x;
    const int tx = tid & 15, ty = tid >> 4;
    const int i0 = blockIdx.y * BM, j0 = blockIdx.x * BN;
    float acc[4][4];
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[r][c] = 0.0f;

    // loader mapping: 64 rows x 16 k = 256 float4 chunks, one per thread per operand
    const int lrow = tid >> 2;          // 0..63
    const int lk = (tid & 3) * 4;       // 0,4,8,12

    for (int k0 = 0; k0 < D; k0 += BK) {
        const int xr = i0 + lrow, yr = j0 + lrow;
        if (VEC) {
            const int k = k0 + lk;      // D % 4 == 0 -> chunk is fully in or fully out
            float4 xv = make_float4(0.f, 0.f, 0.f, 0.f), yv = xv;
            if (xr < M && k < D) xv = __ldg(reinterpret_cast<const float4*>(x + (long long)xr * D + k));
            if (yr < N && k < D) yv = __ldg(reinterpret_cast<const float4*>(y + (long long)yr * D + k));
            xs[lk + 0][lrow] = xv.x; xs[lk + 1][lrow] = xv.y; xs[lk + 2][lrow] = xv.z; xs[lk + 3][lrow] = xv.w;
            ys[lk + 0][lrow] = yv.x; ys[lk + 1][lrow] = yv.y; ys[lk + 2][lrow] = yv.z; ys[lk + 3][lrow] = yv.w;
        } else {
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                const int k = k0 + lk + q;
                xs[lk + q][lrow] = (xr < M && k < D) ? __ldg(x + (long long)xr * D + k) : 0.0f;
                ys[lk + q][lrow] = (yr < N && k < D) ? __ldg(y + (long long)yr * D + k) : 0.0f;
            }
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            const float4 a = *reinterpret_cast<const float4*>(&xs[kk][ty * 4]);
            const float4 b = *reinterpret_cast<const float4*>(&ys[kk][tx * 4]);
            const float av[4] = {a.x, a.y, a.z, a.w};
            const float bv[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
            for (int r = 0; r < 4; ++r)
#pragma unroll
                for (int c = 0; c < 4; ++c) {
                    const float d = av[r] - bv[c];
                    acc[r][c] = fmaf(d, d, acc[r][c]);
                }
        }
        __syncthreads();
    }

    const int jb = j0 + tx * 4;
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const int i = i0 + ty * 4 + r;
        if (i >= M) continue;
        float* orow = out + (long long)i * N;
        if (VEC && jb + 3 < N) {
            float4 o = make_float4(sqrtf(acc[r][0]), sqrtf(acc[r][1]), sqrtf(acc[r][2]), sqrtf(acc[r][3]));
            *reinterpret_cast<float4*>(orow + jb) = o;
        } else {
#pragma unroll
            for (int c = 0; c < 4; ++c)
                if (jb + c < N) orow[jb + c] = sqrtf(acc[r][c]);
        }
    }
}

torch::Tensor cdist_v4_forward(torch::Tensor x, torch::Tensor y) {
    TORCH_CHECK(x.is_cuda() && y.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && y.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 2 && y.dim() == 2 && x.size(1) == y.size(1), "shape mismatch");
    x = x.contiguous();
    y = y.contiguous();
    int M = x.size(0), N = y.size(0), D = x.size(1);
    auto out = torch::empty({M, N}, x.options());
    if (M == 0 || N == 0) return out;
    const bool aligned = ((reinterpret_cast<uintptr_t>(x.data_ptr<float>()) & 15) == 0) &&
                         ((reinterpret_cast<uintptr_t>(y.data_ptr<float>()) & 15) == 0) &&
                         ((reinterpret_cast<uintptr_t>(out.data_ptr<float>()) & 15) == 0);
    const bool vec = aligned && (D % 4 == 0) && (N % 4 == 0);
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    if (vec)
        cdist_v4_kernel<true><<<grid, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(), M, N, D);
    else
        cdist_v4_kernel<false><<<grid, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(), M, N, D);
    return out;
}
"""

cdist_v4_mod = load_inline(
    name="cdist_float4_regblock_vec_kb7",
    cpp_sources=cdist_v4_cpp,
    cuda_sources=cdist_v4_cuda,
    functions=["cdist_v4_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return cdist_v4_mod.cdist_v4_forward(x, y)
