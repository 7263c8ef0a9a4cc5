# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define BX 32
#define BY 8

// 2D blocks of 32x8 output pixels for one (n, oc).  The Cin*K*K filter of that output channel is
// staged once in shared memory; the input is read from global memory (neighbouring taps hit L1).
__global__ void conv2d_smem_w_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                     float* __restrict__ y, int Cin, int H, int W, int Cout,
                                     int K, int pad, int Ho, int Wo) {
    extern __shared__ float s_w[];  // Cin * K * K
    const int noc = blockIdx.z;
    const int oc = noc % Cout;
    const int n = noc / Cout;
    const int tid = threadIdx.y * BX + threadIdx.x;
    const int KK = K * K;

    for (int i = tid; i < Cin * KK; i += BX * BY) s_w[i] = w[(long long)oc * Cin * KK + i];
    __syncthreads();

    const int ow = blockIdx.x * BX + threadIdx.x;
    const int oh = blockIdx.y * BY + threadIdx.y;
    if (oh >= Ho || ow >= Wo) return;

    float acc = 0.0f;
    const float* xn = x + (long long)n * Cin * H * W;
    for (int ci = 0; ci < Cin; ++ci) {
        const float* xp = xn + (long long)ci * H * W;
        const float* wp = s_w + ci * KK;
        for (int kh = 0; kh < K; ++kh) {
            int ih = oh - pad + kh;
            if (ih < 0 || ih >= H) continue;
            for (int kw = 0; kw < K; ++kw) {
                int iw = ow - pad + kw;
                if (iw < 0 || iw >= W) continue;
                acc += __ldg(&xp[(long long)ih * W + iw]) * wp[kh * K + kw];
            }
        }
    }
    y[((long long)noc * Ho + oh) * Wo + ow] = acc;
}

torch::Tensor conv2d_cuda(torch::Tensor x, torch::Tensor weight, int64_t padding) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda(), "tensors must be CUDA");
    const int N = x.size(0), Cin = x.size(1), H = x.size(2), W = x.size(3);
    const int Cout = weight.size(0), K = weight.size(2);
    const int pad = (int)padding;
    const int Ho = H + 2 * pad - K + 1;
    const int Wo = W + 2 * pad - K + 1;
    TORCH_CHECK((long long)N * Cout <= 65535, "grid.z too large");
    size_t shmem = (size_t)Cin * K * K * sizeof(float);
    TORCH_CHECK(shmem <= 48 * 1024, "filter does not fit in shared memory");
    auto y = torch::empty({N, Cout, Ho, Wo}, x.options());

    dim3 block(BX, BY);
    dim3 grid((Wo + BX - 1) / BX, (Ho + BY - 1) / BY, N * Cout);
    conv2d_smem_w_kernel<<<grid, block, shmem, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), weight.data_ptr<float>(), y.data_ptr<float>(), Cin, H, W, Cout, K, pad, Ho, Wo);
    return y;
}
"""

conv_cpp_source = "torch::Tensor conv2d_cuda(torch::Tensor x, torch::Tensor weight, int64_t padding);"

conv = load_inline(
    name="kbf3_conv3x3_smem_weights",
    cpp_sources=conv_cpp_source,
    cuda_sources=conv_source,
    functions=["conv2d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2, bias=False)
        self.padding = kernel_size // 2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv.conv2d_cuda(x.contiguous(), self.conv.weight.contiguous(), self.padding)
