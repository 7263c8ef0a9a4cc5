# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

dwconv_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define COLS_PER_BLOCK 128
#define ROWS_PER_STRIP 32

// 3x3, pad 1: each thread owns one output column inside a strip of ROWS_PER_STRIP rows and slides a
// 3x3 register window down the strip, so every input row is loaded once per strip instead of 3 times.
__global__ void dwconv3x3_sweep_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                       float* __restrict__ y, int C, int H, int W) {
    const int col = blockIdx.x * COLS_PER_BLOCK + threadIdx.x;
    const int h0 = blockIdx.y * ROWS_PER_STRIP;
    const long long nc = blockIdx.z;
    const int c = (int)(nc % C);
    if (col >= W) return;

    const float w00 = __ldg(&w[c * 9 + 0]), w01 = __ldg(&w[c * 9 + 1]), w02 = __ldg(&w[c * 9 + 2]);
    const float w10 = __ldg(&w[c * 9 + 3]), w11 = __ldg(&w[c * 9 + 4]), w12 = __ldg(&w[c * 9 + 5]);
    const float w20 = __ldg(&w[c * 9 + 6]), w21 = __ldg(&w[c * 9 + 7]), w22 = __ldg(&w[c * 9 + 8]);

    const float* plane = x + nc * (long long)H * W;
    float* out = y + nc * (long long)H * W;
    const bool has_l = col > 0;
    const bool has_r = col + 1 < W;

    // rows h0-1 (a*) and h0 (b*); left, centre, right
    float al = 0.f, ac = 0.f, ar = 0.f;
    if (h0 - 1 >= 0) {
        const float* r = plane + (long long)(h0 - 1) * W;
        ac = __ldg(&r[col]);
        al = has_l ? __ldg(&r[col - 1]) : 0.f;
        ar = has_r ? __ldg(&r[col + 1]) : 0.f;
    }
    float bl, bc, br;
    {
        const float* r = plane + (long long)h0 * W;
        bc = __ldg(&r[col]);
        bl = has_l ? __ldg(&r[col - 1]) : 0.f;
        br = has_r ? __ldg(&r[col + 1]) : 0.f;
    }

    const int h_end = min(h0 + ROWS_PER_STRIP, H);
    for (int h = h0; h < h_end; ++h) {
        float cl = 0.f, cc = 0.f, cr = 0.f;
        if (h + 1 < H) {
            const float* r = plane + (long long)(h + 1) * W;
            cc = __ldg(&r[col]);
            cl = has_l ? __ldg(&r[col - 1]) : 0.f;
            cr = has_r ? __ldg(&r[col + 1]) : 0.f;
        }
        out[(long long)h * W + col] = al * w00 + ac * w01 + ar * w02
                                    + bl * w10 + bc * w11 + br * w12
                                    + cl * w20 + cc * w21 + cr * w22;
        al = bl; ac = bc; ar = br;
        bl = cl; bc = cc; br = cr;
    }
}

// Generic fallback for other kernel sizes: one thread per output.
__global__ void dwconv_generic_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                      float* __restrict__ y, int C, int H, int W, int K, int pad,
                                      int Ho, int Wo, long long total) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int ow = (int)(idx % Wo);
    long long t = idx / Wo;
    int oh = (int)(t % Ho);
    long long nc = t / Ho;
    int c = (int)(nc % C);
    const float* xp = x + nc * (long long)H * W;
    float acc = 0.0f;
    for (int kh = 0; kh < K; ++kh) {
        int ih = oh - pad + kh;
        if (ih < 0 || ih >= H) continue;
        for (int kw = 0; kw < K; ++kw) {
            int iw = ow - pad + kw;
            if (iw < 0 || iw >= W) continue;
            acc += xp[(long long)ih * W + iw] * w[(long long)c * K * K + kh * K + kw];
        }
    }
    y[idx] = acc;
}

torch::Tensor depthwise_conv2d_cuda(torch::Tensor x, torch::Tensor weight, int64_t padding) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda(), "tensors must be CUDA");
    const int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    const int K = weight.size(2);
    const int pad = (int)padding;
    const int Ho = H + 2 * pad - K + 1;
    const int Wo = W + 2 * pad - K + 1;
    auto y = torch::empty({N, C, Ho, Wo}, x.options());
    auto stream = at::cuda::getCurrentCUDAStream();

    if (K == 3 && pad == 1 && (long long)N * C <= 65535) {
        dim3 block(COLS_PER_BLOCK);
        dim3 grid((W + COLS_PER_BLOCK - 1) / COLS_PER_BLOCK, (H + ROWS_PER_STRIP - 1) / ROWS_PER_STRIP, N * C);
        dwconv3x3_sweep_kernel<<<grid, block, 0, stream>>>(
            x.data_ptr<float>(), weight.data_ptr<float>(), y.data_ptr<float>(), C, H, W);
    } else {
        long long total = (long long)N * C * Ho * Wo;
        const int threads = 256;
        long long blocks = (total + threads - 1) / threads;
        dwconv_generic_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
            x.data_ptr<float>(), weight.data_ptr<float>(), y.data_ptr<float>(), C, H, W, K, pad, Ho, Wo, total);
    }
    return y;
}
"""

dwconv_cpp_source = "torch::Tensor depthwise_conv2d_cuda(torch::Tensor x, torch::Tensor weight, int64_t padding);"

dwconv = load_inline(
    name="kbf3_dwconv_column_sweep",
    cpp_sources=dwconv_cpp_source,
    cuda_sources=dwconv_source,
    functions=["depthwise_conv2d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, in_channels, kernel_size, padding=kernel_size // 2,
                              groups=in_channels, bias=False)
        self.padding = kernel_size // 2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return dwconv.depthwise_conv2d_cuda(x.contiguous(), self.conv.weight.contiguous(), self.padding)
