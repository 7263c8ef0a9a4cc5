# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cdist_mm_cpp = "torch::Tensor cdist_mm_forward(torch::Tensor x, torch::Tensor y);"

cdist_mm_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Two-kernel pipeline using ||x-y||^2 = ||x||^2 + ||y||^2 - 2 x.y :
//  1) squared row norms of x and y, one warp per row with __shfl_xor_sync reduction;
//  2) a 32x32 shared-memory tiled dot-product "GEMM" (32x8 threads, 4 outputs per thread)
//     with the norms and a clamped sqrt fused into the epilogue.

__global__ void row_sqnorm_kernel(const float* __restrict__ a, float* __restrict__ nrm, int R, int D) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (warp >= R) return;
    const float* row = a + (long long)warp * D;
    float s = 0.0f;
    for (int k = lane; k < D; k += 32) { float v = __ldg(row + k); s += v * v; }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) nrm[warp] = s;
}

#define BT 32
#define BK 32

__global__ void cdist_dot_kernel(const float* __restrict__ x, const float* __restrict__ y,
                                 const float* __restrict__ xn, const float* __restrict__ yn,
                                 float* __restrict__ out, int M, int N, int D) {
    __shared__ float xs[BT][BK + 1];
    __shared__ float ys[BT][BK + 1];
    int tx = threadIdx.x;          // 0..31 -> column j
    int ty = threadIdx.y;          // 0..7  -> rows ty, ty+8, ty+16, ty+24
    int i0 = blockIdx.y * BT, j0 = blockIdx.x * BT;
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < D; k0 += BK) {
        int k = k0 + tx;
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            int row = ty + 8 * r;
            int xr = i0 + row, yr = j0 + row;
            xs[row][tx] = (xr < M && k < D) ? x[(long long)xr * D + k] : 0.0f;
            ys[row][tx] = (yr < N && k < D) ? y[(long long)yr * D + k] : 0.0f;
        }
        __syncthreads();
#pragma unroll 8
        for (int kk = 0; kk < BK; ++kk) {
            float b = ys[tx][kk];
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[r] += xs[ty + 8 * r][kk] * b;
        }
        __syncthreads();
    }
    int j = j0 + tx;
    if (j >= N) return;
    float ny = yn[j];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        int i = i0 + ty + 8 * r;
        if (i < M) {
            float d2 = xn[i] + ny - 2.0f * acc[r];
            out[(long long)i * N + j] = sqrtf(fmaxf(d2, 0.0f));
        }
    }
}

torch::Tensor cdist_mm_forward(torch::Tensor x, torch::Tensor y) {
    TORCH_CHECK(x.is_cuda() && y.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && y.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 2 && y.dim() == 2 && x.size(1) == y.size(1), "shape mismatch");
    x = x.contiguous();
    y = y.contiguous();
    int M = x.size(0), N = y.size(0), D = x.size(1);
    auto out = torch::empty({M, N}, x.options());
    if (M == 0 || N == 0) return out;
    auto xn = torch::empty({M}, x.options());
    auto yn = torch::empty({N}, x.options());
    const int nt = 256;
    row_sqnorm_kernel<<<(int)(((long long)M * 32 + nt - 1) / nt), nt>>>(x.data_ptr<float>(), xn.data_ptr<float>(), M, D);
    row_sqnorm_kernel<<<(int)(((long long)N * 32 + nt - 1) / nt), nt>>>(y.data_ptr<float>(), yn.data_ptr<float>(), N, D);
    dim3 block(32, 8);
    dim3 grid((N + BT - 1) / BT, (M + BT - 1) / BT);
    cdist_dot_kernel<<<grid, block>>>(x.data_ptr<float>(), y.data_ptr<float>(), xn.data_ptr<float>(),
                                      yn.data_ptr<float>(), out.data_ptr<float>(), M, N, D);
    return out;
}
"""

cdist_mm_mod = load_inline(
    name="cdist_norm_expansion_gemm_kb7",
    cpp_sources=cdist_mm_cpp,
    cuda_sources=cdist_mm_cuda,
    functions=["cdist_mm_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return cdist_mm_mod.cdist_mm_forward(x, y)
