# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_s2_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: grid = (pixel chunks, C_out, N). Each block caches the C_in*9 filter taps of its
// output channel in shared memory; each thread computes one output pixel, reading the input
// through the read-only cache (__ldg) with a fully unrolled 3x3 window.

__global__ void conv2d_s2_smemw_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                       const float* __restrict__ b, float* __restrict__ y,
                                       int C, int H, int W, int K, int Ho, int Wo) {
    extern __shared__ float sw[];   // C * 9 taps for this output channel
    const int co = blockIdx.y;
    const int n = blockIdx.z;
    const int taps = C * 9;
    const float* wk = w + (long long)co * taps;
    for (int i = threadIdx.x; i < taps; i += blockDim.x) sw[i] = wk[i];
    __syncthreads();

    const int HoWo = Ho * Wo;
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= HoWo) return;
    const int oh = p / Wo;
    const int ow = p - oh * Wo;
    const int ih0 = oh * 2 - 1;
    const int iw0 = ow * 2 - 1;

    // row / column validity of the 3x3 window (only the top row / left column can fall into
    // the padding at the low side, the bottom row / right column at the high side)
    const bool r0 = ih0 >= 0, r2 = (ih0 + 2) < H;
    const bool c0 = iw0 >= 0, c2 = (iw0 + 2) < W;

    const float* xn = x + (long long)n * C * H * W;
    float acc = __ldg(&b[co]);
    for (int ci = 0; ci < C; ++ci) {
        const float* xp = xn + (long long)ci * H * W;
        const float* wp = sw + ci * 9;
        #pragma unroll
        for (int kh = 0; kh < 3; ++kh) {
            const bool rv = (kh == 0) ? r0 : ((kh == 2) ? r2 : true);
            if (!rv) continue;
            const float* row = xp + (long long)(ih0 + kh) * W + iw0;
            float a0 = c0 ? __ldg(row + 0) : 0.f;
            float a1 = __ldg(row + 1);
            float a2 = c2 ? __ldg(row + 2) : 0.f;
            acc = fmaf(a0, wp[kh * 3 + 0], acc);
            acc = fmaf(a1, wp[kh * 3 + 1], acc);
            acc = fmaf(a2, wp[kh * 3 + 2], acc);
        }
    }
    y[((long long)n * K + co) * HoWo + p] = acc;
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
    size_t smem = (size_t)C * 9 * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "too many input channels for this kernel");
    TORCH_CHECK(K <= 65535 && N <= 65535, "grid too large");
    int threads = 256;
    dim3 grid((Ho * Wo + threads - 1) / threads, K, N);
    conv2d_s2_smemw_kernel<<<grid, threads, smem>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        C, H, W, K, Ho, Wo);
    return y;
}
"""

my_mod = load_inline(
    name="conv2d_s2_smem_weights_s45",
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
