# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define CIN_SPLITS 4

// Split the input-channel reduction into CIN_SPLITS slices to expose more parallelism: each thread
// computes the partial sum of one output pixel over one slice of input channels and atomically adds
// it into the zero-initialised output.  grid = (pixel blocks, Cout, N * CIN_SPLITS).
__global__ void conv2d_splitk_atomic_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                            float* __restrict__ y, int Cin, int H, int W, int Cout,
                                            int K, int pad, int Ho, int Wo, int ci_per_split) {
    const long long P = (long long)Ho * Wo;
    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= P) return;
    const int oc = blockIdx.y;
    const int n = blockIdx.z / CIN_SPLITS;
    const int split = blockIdx.z % CIN_SPLITS;
    const int ci_begin = split * ci_per_split;
    const int ci_end = min(Cin, ci_begin + ci_per_split);
    if (ci_begin >= ci_end) return;

    const int oh = (int)(p / Wo), ow = (int)(p % Wo);
    const int KK = K * K;
    float acc = 0.0f;
    for (int ci = ci_begin; ci < ci_end; ++ci) {
        const float* xp = x + ((long long)n * Cin + ci) * H * W;
        const float* wp = w + ((long long)oc * Cin + ci) * KK;
        for (int kh = 0; kh < K; ++kh) {
            const int ih = oh - pad + kh;
            if (ih < 0 || ih >= H) continue;
            for (int kw = 0; kw < K; ++kw) {
                const int iw = ow - pad + kw;
                if (iw < 0 || iw >= W) continue;
                acc += __ldg(&xp[(long long)ih * W + iw]) * __ldg(&wp[kh * K + kw]);
            }
        }
    }
    atomicAdd(&y[((long long)n * Cout + oc) * P + p], acc);
}

torch::Tensor conv2d_cuda(torch::Tensor x, torch::Tensor weight, int64_t padding) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda(), "tensors must be CUDA");
    const int N = x.size(0), Cin = x.size(1), H = x.size(2), W = x.size(3);
    const int Cout = weight.size(0), K = weight.size(2);
    const int pad = (int)padding;
    const int Ho = H + 2 * pad - K + 1;
    const int Wo = W + 2 * pad - K + 1;
    TORCH_CHECK(Cout <= 65535 && (long long)N * CIN_SPLITS <= 65535, "grid too large");
    auto y = torch::zeros({N, Cout, Ho, Wo}, x.options());

    const long long P = (long long)Ho * Wo;
    const int ci_per_split = (Cin + CIN_SPLITS - 1) / CIN_SPLITS;
    const int threads = 128;
    dim3 grid((unsigned int)((P + threads - 1) / threads), Cout, N * CIN_SPLITS);
    conv2d_splitk_atomic_kernel<<<grid, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), weight.data_ptr<float>(), y.data_ptr<float>(), Cin, H, W, Cout, K, pad, Ho, Wo,
        ci_per_split);
    return y;
}
"""

conv_cpp_source = "torch::Tensor conv2d_cuda(torch::Tensor x, torch::Tensor weight, int64_t padding);"

conv = load_inline(
    name="kbf3_conv3x3_splitcin_atomic",
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
