# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cdist_rb_cpp = "torch::Tensor cdist_rb_forward(torch::Tensor x, torch::Tensor y);"

cdist_rb_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// 128x128 output tile per block, 256 threads (16x16), each thread accumulates an 8x8
// register block of squared differences directly (no norm expansion -> no cancellation).
// Shared tiles are stored k-major (transposed) so the inner loop reads consecutive rows.
#define BM 128
#define BN 128
#define BKK 8
#define TM 8
#define TN 8

__global__ void __launch_bounds__(256)
cdist_rb_kernel(const float* __restrict__ x, const float* __restrict__ y,
                float* __restrict__ out, int M, int N, int D) {
    __shared__ float xs[BKK][BM];
    __shared__ float ys[BKK][BN];
    int tid = threadIdx.x;
    int tx = tid & 15, ty = tid >> 4;
    int i0 = blockIdx.y * BM, j0 = blockIdx.x * BN;
    float acc[TM][TN];
#pragma unroll
    for (int r = 0; r < TM; ++r)
#pragma unroll
        for (int c = 0; c < TN; ++c) acc[r][c] = 0.0f;

    for (int k0 = 0; k0 < D; k0 += BKK) {
        // 128 rows x 8 k = 1024 elements per operand, 4 per thread.
#pragma unroll
        for (int l = 0; l < 4; ++l) {
            int e = tid + l * 256;
            int row = e >> 3;      // 0..127
            int kk = e & 7;        // 0..7
            int k = k0 + kk;
            int xr = i0 + row, yr = j0 + row;
            xs[kk][row] = (xr < M && k < D) ? __ldg(x + (long long)xr * D + k) : 0.0f;
            ys[kk][row] = (yr < N && k < D) ? __ldg(y + (long long)yr * D + k) : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BKK; ++kk) {
            float a[TM], b[TN];
#pragma unroll
            for (int r = 0; r < TM; ++r) a[r] = xs[kk][ty + 16 * r];
#pragma unroll
            for (int c = 0; c < TN; ++c) b[c] = ys[kk][tx + 16 * c];
#pragma unroll
            for (int r = 0; r < TM; ++r)
#pragma unroll
                for (int c = 0; c < TN; ++c) {
                    float d = a[r] - b[c];
                    acc[r][c] = fmaf(d, d, acc[r][c]);
                }
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < TM; ++r) {
        int i = i0 + ty + 16 * r;
        if (i >= M) continue;
#pragma unroll
        for (int c = 0; c < TN; ++c) {
            int j = j0 + tx + 16 * c;
            if (j < N) out[(long long)i * N + j] = sqrtf(acc[r][c]);
        }
    }
}

torch::Tensor cdist_rb_forward(torch::Tensor x, torch::Tensor y) {
    TORCH_CHECK(x.is_cuda() && y.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && y.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 2 && y.dim() == 2 && x.size(1) == y.size(1), "shape mismatch");
    x = x.contiguous();
    y = y.contiguous();
    int M = x.size(0), N = y.size(0), D = x.size(1);
    auto out = torch::empty({M, N}, x.options());
    if (M == 0 || N == 0) return out;
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    cdist_rb_kernel<<<grid, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(), M, N, D);
    return out;
}
"""

cdist_rb_mod = load_inline(
    name="cdist_regblock_8x8_diff_kb7",
    cpp_sources=cdist_rb_cpp,
    cuda_sources=cdist_rb_cuda,
    functions=["cdist_rb_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return cdist_rb_mod.cdist_rb_forward(x, y)
