# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TILE 32

// A 1x1 convolution is a batched GEMM: Y[n] (C_out x HW) = W (C_out x C_in) * X[n] (C_in x HW).
// Textbook 32x32 shared-memory tiling, one output per thread, batch on grid.z.
__global__ void pw_tiled_gemm_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                     int Cin, int Cout, int P) {
    __shared__ float Ws[TILE][TILE];
    __shared__ float Xs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int n = blockIdx.z;
    const int co = blockIdx.y * TILE + ty;
    const int p = blockIdx.x * TILE + tx;
    const float* xn = x + (long long)n * Cin * P;
    float acc = 0.f;
    for (int k0 = 0; k0 < Cin; k0 += TILE) {
        const int wc = k0 + tx;
        Ws[ty][tx] = (co < Cout && wc < Cin) ? w[(long long)co * Cin + wc] : 0.f;
        const int xr = k0 + ty;
        Xs[ty][tx] = (xr < Cin && p < P) ? xn[(long long)xr * P + p] : 0.f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TILE; ++kk) acc += Ws[ty][kk] * Xs[kk][tx];
        __syncthreads();
    }
    if (co < Cout && p < P) y[((long long)n * Cout + co) * P + p] = acc;
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
    dim3 block(TILE, TILE);
    dim3 grid((P + TILE - 1) / TILE, (Cout + TILE - 1) / TILE, N);
    pw_tiled_gemm_kernel<<<grid, block>>>(x.data_ptr<float>(), w.data_ptr<float>(), y.data_ptr<float>(), Cin, Cout, P);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_src = "torch::Tensor pointwise_conv2d_forward(torch::Tensor x, torch::Tensor w);"

_ext = load_inline(
    name="pointwise_conv2d_tiled_gemm32",
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
