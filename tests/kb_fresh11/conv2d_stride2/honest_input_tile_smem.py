# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_s2_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: classic 2D shared-memory tiling. A 16x16 thread block computes a 16x16 output tile
// of one (n, c_out) plane. For each chunk of 8 input channels it stages the 33x33 input halo
// tile (stride 2 => 2*16+1 rows/cols) and the 8*9 filter taps in shared memory, then every
// thread accumulates its own output pixel from shared memory.

#define TILE 16
#define IN_T (2 * TILE + 1)   // 33
#define IN_P (IN_T + 1)       // padded row pitch
#define CCH 8                 // input channels per shared-memory stage

__global__ void conv2d_s2_tile_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                      const float* __restrict__ b, float* __restrict__ y,
                                      int N, int C, int H, int W, int K, int Ho, int Wo) {
    __shared__ float s_in[CCH][IN_T][IN_P];
    __shared__ float s_w[CCH * 9];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * TILE + tx;
    const int nthreads = TILE * TILE;
    const int co = blockIdx.z % K;
    const int n = blockIdx.z / K;
    const int oh0 = blockIdx.y * TILE, ow0 = blockIdx.x * TILE;
    const int ih_base = oh0 * 2 - 1, iw_base = ow0 * 2 - 1;

    const float* xn = x + (long long)n * C * H * W;
    const float* wk = w + (long long)co * C * 9;
    float acc = 0.f;

    for (int c0 = 0; c0 < C; c0 += CCH) {
        // stage input halo tiles (zero padded outside the image / past C)
        for (int i = tid; i < CCH * IN_T * IN_T; i += nthreads) {
            int cc = i / (IN_T * IN_T);
            int rem = i - cc * (IN_T * IN_T);
            int r = rem / IN_T;
            int col = rem - r * IN_T;
            int ci = c0 + cc;
            int ih = ih_base + r, iw = iw_base + col;
            float v = 0.f;
            if (ci < C && ih >= 0 && ih < H && iw >= 0 && iw < W)
                v = xn[((long long)ci * H + ih) * W + iw];
            s_in[cc][r][col] = v;
        }
        for (int i = tid; i < CCH * 9; i += nthreads) {
            int ci = c0 + i / 9;
            s_w[i] = (ci < C) ? wk[(long long)c0 * 9 + i] : 0.f;
        }
        __syncthreads();

        #pragma unroll
        for (int cc = 0; cc < CCH; ++cc) {
            #pragma unroll
            for (int kh = 0; kh < 3; ++kh) {
                #pragma unroll
                for (int kw = 0; kw < 3; ++kw) {
                    acc = fmaf(s_in[cc][2 * ty + kh][2 * tx + kw], s_w[cc * 9 + kh * 3 + kw], acc);
                }
            }
        }
        __syncthreads();
    }

    const int oh = oh0 + ty, ow = ow0 + tx;
    if (oh < Ho && ow < Wo)
        y[(((long long)n * K + co) * Ho + oh) * Wo + ow] = acc + b[co];
}

torch::Tensor conv2d_s2_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "tensors must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "expected 4D input and weight");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    int N = xc.size(0), C = xc.size(1), H = xc.size(2), W = xc.size(3);
    int K = wc.size(0);
    TORCH_CHECK(wc.size(1) == C && wc.size(2) == 3 && wc.size(3) == 3, "weight shape mismatch");
    int Ho = (H + 2 - 3) / 2 + 1;
    int Wo = (W + 2 - 3) / 2 + 1;
    auto y = torch::empty({N, K, Ho, Wo}, xc.options());
    if (y.numel() == 0) return y;
    TORCH_CHECK((long long)N * K <= 65535, "N * C_out too large for grid.z");
    dim3 block(TILE, TILE);
    dim3 grid((Wo + TILE - 1) / TILE, (Ho + TILE - 1) / TILE, N * K);
    conv2d_s2_tile_kernel<<<grid, block>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        N, C, H, W, K, Ho, Wo);
    return y;
}
"""

my_mod = load_inline(
    name="conv2d_s2_input_tile_smem_s45",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_s2_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=2, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.conv2d_s2_cuda(x, self.conv.weight, self.conv.bias)
