# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define BM 64    // output channels per block
#define BN 64    // pixels per block
#define BK 8     // input channels per shared-memory stage
#define TM 4
#define TN 4

// Batched GEMM Y[n] = W * X[n] with a 64x64 block tile and a 4x4 register micro-tile per thread
// (256 threads).  W is staged transposed as As[k][m] so both operands are read as rows.
__global__ void __launch_bounds__(256) pw_regblock_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                                          float* __restrict__ y, int Cin, int Cout, int P) {
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int t = threadIdx.x;
    const int tx = t % 16, ty = t / 16;
    const int n = blockIdx.z;
    const int co0 = blockIdx.y * BM;
    const int p0 = blockIdx.x * BN;
    const float* xn = x + (long long)n * Cin * P;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

    for (int k0 = 0; k0 < Cin; k0 += BK) {
#pragma unroll
        for (int e = 0; e < 2; ++e) {
            const int idx = t + e * 256;
            // A: 64 rows x 8 cols, k fastest (contiguous in w)
            const int am = idx / BK, ak = idx % BK;
            const int co = co0 + am, ci = k0 + ak;
            As[ak][am] = (co < Cout && ci < Cin) ? __ldg(w + (long long)co * Cin + ci) : 0.f;
            // B: 8 rows x 64 cols, pixel fastest
            const int bk = idx / BN, bc = idx % BN;
            const int cj = k0 + bk, p = p0 + bc;
            Bs[bk][bc] = (cj < Cin && p < P) ? __ldg(xn + (long long)cj * P + p) : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[kk][ty * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = Bs[kk][tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int co = co0 + ty * TM + i;
        if (co >= Cout) continue;
        float* yr = y + ((long long)n * Cout + co) * P;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int p = p0 + tx * TN + j;
            if (p < P) yr[p] = acc[i][j];
        }
    }
}

torch::Tensor pointwise_conv2d_forward(torch::Tensor x, torch::Tensor w) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4, "x must be (N, C_in, H, W)");
    TORCH_CHECK(w.dim() == 4 && w.size(2) == 1 && w.size(3) == 1, "w must be (C_out, C_in, 1, 1)");
    x = x.contiguous();
    w = w.contiguous();
    int N = x.size(0), Cin = x.size(1), H = x.size(2), W = x.size(3);
    int Cout = w.size(0);
    TORCH_CHECK(w.size(1) == Cin, "weight C_in mismatch");
    int P = H * W;
    TORCH_CHECK(N <= 65535, "batch too large for grid.z");
    auto y = torch::empty({N, Cout, H, W}, x.options());
    if (N == 0 || Cout == 0 || P == 0) return y;
    dim3 grid((P + BN - 1) / BN, (Cout + BM - 1) / BM, N);
    pw_regblock_kernel<<<grid, 256>>>(x.data_ptr<float>(), w.data_ptr<float>(), y.data_ptr<float>(), Cin, Cout, P);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_src = "torch::Tensor pointwise_conv2d_forward(torch::Tensor x, torch::Tensor w);"

_ext = load_inline(
    name="pointwise_conv2d_regblock_64x64",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["pointwise_conv2d_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.pointwise_conv2d_forward(x, self.conv.weight)
