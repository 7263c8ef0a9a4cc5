# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

dwconv_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <stdint.h>

// Fast path for 3x3 / pad 1 when W is a multiple of 4: each thread produces 4 consecutive outputs of
// one row, reading the 3 input rows as float4 plus one scalar on each side, and writes a float4.
__global__ void dwconv3x3_vec4_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                      float* __restrict__ y, int C, int H, int W, long long total_vec) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total_vec) return;
    const int Wv = W >> 2;
    const int xv = (int)(i % Wv);
    long long t = i / Wv;
    const int h = (int)(t % H);
    const long long nc = t / H;
    const int c = (int)(nc % C);

    float k[9];
#pragma unroll
    for (int j = 0; j < 9; ++j) k[j] = __ldg(&w[c * 9 + j]);

    const float* plane = x + nc * (long long)H * W;
    const int w0 = xv * 4;
    float o0 = 0.f, o1 = 0.f, o2 = 0.f, o3 = 0.f;

#pragma unroll
    for (int kh = 0; kh < 3; ++kh) {
        const int ih = h - 1 + kh;
        if (ih < 0 || ih >= H) continue;
        const float* row = plane + (long long)ih * W;
        const float4 m = __ldg(reinterpret_cast<const float4*>(row + w0));
        const float l = (w0 > 0) ? __ldg(&row[w0 - 1]) : 0.0f;
        const float r = (w0 + 4 < W) ? __ldg(&row[w0 + 4]) : 0.0f;
        const float a = k[kh * 3 + 0], b = k[kh * 3 + 1], cc = k[kh * 3 + 2];
        o0 += l   * a + m.x * b + m.y * cc;
        o1 += m.x * a + m.y * b + m.z * cc;
        o2 += m.y * a + m.z * b + m.w * cc;
        o3 += m.z * a + m.w * b + r   * cc;
    }
    reinterpret_cast<float4*>(y)[i] = make_float4(o0, o1, o2, o3);
}

// Generic fallback: one thread per output.
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

    const bool aligned = (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(y.data_ptr<float>()) % 16 == 0);
    if (K == 3 && pad == 1 && W % 4 == 0 && aligned) {
        long long total_vec = (long long)N * C * H * (W / 4);
        const int threads = 512;
        long long blocks = (total_vec + threads - 1) / threads;
        dwconv3x3_vec4_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
            x.data_ptr<float>(), weight.data_ptr<float>(), y.data_ptr<float>(), C, H, W, total_vec);
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
    name="kbf3_dwconv_float4_k3",
    cpp_sources=dwconv_cpp_source,
    cuda_sources=dwconv_source,
    functions=["depthwise_conv2d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, in_channels, kernel_size, padding=kernel_size // 2,
                              groups=in_channels, bias=False)
        self.padding = kernel_size // 2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return dwconv.depthwise_conv2d_cuda(x.contiguous(), self.conv.weight.contiguous(), self.padding)
