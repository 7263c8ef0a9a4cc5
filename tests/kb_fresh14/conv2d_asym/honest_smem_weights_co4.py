# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, int64_t pad_h, int64_t pad_w);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: one thread per output pixel computing CO_T=4 output channels at once. The block's
// filters (CO_T x Cin x KH x KW) are staged in shared memory (warp-uniform broadcast reads);
// every input value fetched through __ldg is reused for the 4 output channels.

#define CO_T 4

__global__ void conv2d_smemw_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                    float* __restrict__ y,
                                    int Cin, int H, int W, int Cout, int Ho, int Wo,
                                    int KH, int KW, int PH, int PW) {
    extern __shared__ float ws[];  // [CO_T][Cin*KH*KW]
    const int KK = Cin * KH * KW;
    const int co0 = blockIdx.y * CO_T;
    const int n = blockIdx.z;
    for (int i = threadIdx.x; i < CO_T * KK; i += blockDim.x) {
        int c = i / KK;
        int r = i - c * KK;
        ws[i] = (co0 + c < Cout) ? w[(size_t)(co0 + c) * KK + r] : 0.f;
    }
    __syncthreads();

    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= Ho * Wo) return;
    int oh = p / Wo;
    int ow = p - oh * Wo;

    float acc[CO_T];
#pragma unroll
    for (int c = 0; c < CO_T; ++c) acc[c] = 0.f;

    const float* xn = x + (size_t)n * Cin * H * W;
    const int KHW = KH * KW;
    for (int ci = 0; ci < Cin; ++ci) {
        const float* xc = xn + (size_t)ci * H * W;
        const float* wci = ws + ci * KHW;
        for (int kh = 0; kh < KH; ++kh) {
            int ih = oh - PH + kh;
            if (ih < 0 || ih >= H) continue;
            const float* xrow = xc + (size_t)ih * W;
            for (int kw = 0; kw < KW; ++kw) {
                int iw = ow - PW + kw;
                if (iw < 0 || iw >= W) continue;
                float v = __ldg(xrow + iw);
                int widx = kh * KW + kw;
#pragma unroll
                for (int c = 0; c < CO_T; ++c) acc[c] += v * wci[c * KK + widx];
            }
        }
    }
#pragma unroll
    for (int c = 0; c < CO_T; ++c) {
        int co = co0 + c;
        if (co < Cout) y[(((size_t)n * Cout + co) * Ho + oh) * Wo + ow] = acc[c];
    }
}

torch::Tensor my_op_cuda(torch::Tensor x, torch::Tensor w, int64_t pad_h, int64_t pad_w) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(w.is_cuda(), "w must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "4-D tensors expected");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    int N = xc.size(0), Cin = xc.size(1), H = xc.size(2), W = xc.size(3);
    int Cout = wc.size(0), KH = wc.size(2), KW = wc.size(3);
    TORCH_CHECK(wc.size(1) == Cin, "channel mismatch");
    int PH = (int)pad_h, PW = (int)pad_w;
    int Ho = H + 2 * PH - KH + 1;
    int Wo = W + 2 * PW - KW + 1;
    TORCH_CHECK(Ho > 0 && Wo > 0, "bad output size");
    auto out = torch::empty({N, Cout, Ho, Wo}, xc.options());
    if (out.numel() == 0) return out;
    size_t smem = (size_t)CO_T * Cin * KH * KW * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "filter slice too large for shared memory");
    int threads = 256;
    dim3 grid((Ho * Wo + threads - 1) / threads, (Cout + CO_T - 1) / CO_T, N);
    conv2d_smemw_kernel<<<grid, threads, smem>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), out.data_ptr<float>(),
        Cin, H, W, Cout, Ho, Wo, KH, KW, PH, PW);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_conv2d_asym_smem_weights_co4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, (3, 7), padding=(1, 3), bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x, self.conv.weight, self.conv.padding[0], self.conv.padding[1])
