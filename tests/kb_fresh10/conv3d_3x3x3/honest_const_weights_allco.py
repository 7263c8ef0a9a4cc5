# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv3d_const_allco_cuda(torch::Tensor x, torch::Tensor w);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// One thread per output voxel (n, d, h, w) that computes a block of 32 output channels in registers:
// each input value is loaded once per tap and reused for all 32 channels. Weights live in __constant__
// memory; every lane of a warp reads the same weight at the same time, so the constant cache broadcasts.

#define COB 32
#define MAX_CONST_W 16000   // 64000 bytes of __constant__ memory

__constant__ float c_w[MAX_CONST_W];

template <bool USE_CONST>
__global__ void __launch_bounds__(256)
conv3d_allco_kernel(const float* __restrict__ x, const float* __restrict__ wg, float* __restrict__ y,
                    int N, int Cin, int Cout, int D, int H, int W) {
    const int S = D * H * W;
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long long)N * S) return;
    const int n = (int)(idx / S);
    const int s = (int)(idx % S);
    const int ow = s % W;
    const int oh = (s / W) % H;
    const int od = s / (W * H);
    const float* xn = x + (long long)n * Cin * S;

    for (int co0 = 0; co0 < Cout; co0 += COB) {
        float acc[COB];
#pragma unroll
        for (int j = 0; j < COB; ++j) acc[j] = 0.0f;

        for (int ci = 0; ci < Cin; ++ci) {
            const float* xc = xn + (long long)ci * S;
            const int wbase = (co0 * Cin + ci) * 27;
#pragma unroll
            for (int kd = 0; kd < 3; ++kd) {
                const int id = od + kd - 1;
                const bool vd = (id >= 0) && (id < D);
#pragma unroll
                for (int kh = 0; kh < 3; ++kh) {
                    const int ih = oh + kh - 1;
                    const bool vh = vd && (ih >= 0) && (ih < H);
#pragma unroll
                    for (int kw = 0; kw < 3; ++kw) {
                        const int iw = ow + kw - 1;
                        const bool v = vh && (iw >= 0) && (iw < W);
                        const float xv = v ? __ldg(xc + ((long long)id * H + ih) * W + iw) : 0.0f;
                        const int tap = kd * 9 + kh * 3 + kw;
#pragma unroll
                        for (int j = 0; j < COB; ++j) {
                            if (co0 + j < Cout) {
                                const int wi = wbase + j * Cin * 27 + tap;
                                const float wv = USE_CONST ? c_w[wi] : __ldg(wg + wi);
                                acc[j] = fmaf(xv, wv, acc[j]);
                            }
                        }
                    }
                }
            }
        }
#pragma unroll
        for (int j = 0; j < COB; ++j) {
            if (co0 + j < Cout)
                y[((long long)n * Cout + co0 + j) * S + s] = acc[j];
        }
    }
}

torch::Tensor conv3d_const_allco_cuda(torch::Tensor x, torch::Tensor w) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda(), "x and w must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 5 && w.dim() == 5, "expected 5-D input and weight");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    int N = xc.size(0), Cin = xc.size(1), D = xc.size(2), H = xc.size(3), W = xc.size(4);
    int Cout = wc.size(0);
    TORCH_CHECK(wc.size(1) == Cin && wc.size(2) == 3 && wc.size(3) == 3 && wc.size(4) == 3,
                "this kernel implements a 3x3x3 convolution with padding 1");
    auto y = torch::empty({N, Cout, D, H, W}, xc.options());
    long long total = (long long)N * D * H * W;
    if (total == 0 || Cout == 0) return y;
    const int threads = 256;
    unsigned int blocks = (unsigned int)((total + threads - 1) / threads);
    long long nw = (long long)Cout * Cin * 27;
    if (nw <= MAX_CONST_W) {
        cudaMemcpyToSymbolAsync(c_w, wc.data_ptr<float>(), nw * sizeof(float), 0, cudaMemcpyDeviceToDevice, 0);
        conv3d_allco_kernel<true><<<blocks, threads>>>(xc.data_ptr<float>(), wc.data_ptr<float>(),
                                                       y.data_ptr<float>(), N, Cin, Cout, D, H, W);
    } else {
        // weights too large for constant memory: same kernel, weights through the read-only cache
        conv3d_allco_kernel<false><<<blocks, threads>>>(xc.data_ptr<float>(), wc.data_ptr<float>(),
                                                        y.data_ptr<float>(), N, Cin, Cout, D, H, W);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "conv3d_allco_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

conv_mod = load_inline(
    name="s44_conv3d_const_weights_allco",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv3d_const_allco_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=kernel_size // 2, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_mod.conv3d_const_allco_cuda(x, self.conv.weight)
