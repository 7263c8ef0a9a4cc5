# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor pixel_shuffle_cuda(torch::Tensor x, int64_t r);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Naive first attempt: one thread per output element, full 64-bit div/mod decomposition of the
// flat output index, one scalar gather load from the input.

__global__ void pixel_shuffle_naive_kernel(const float* __restrict__ in, float* __restrict__ out,
                                           long long total, int C, int H, int W, int r) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    long long OW = (long long)W * r;
    long long OH = (long long)H * r;
    long long ow = idx % OW;
    long long t = idx / OW;
    long long oh = t % OH;
    t /= OH;
    long long c = t % C;
    long long n = t / C;
    long long h = oh / r, i = oh % r;
    long long w = ow / r, j = ow % r;
    long long ic = c * r * r + i * r + j;
    long long Cin = (long long)C * r * r;
    out[idx] = in[((n * Cin + ic) * H + h) * W + w];
}

torch::Tensor pixel_shuffle_cuda(torch::Tensor x, int64_t r) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 4, "x must be 4-D (N, C*r*r, H, W)");
    TORCH_CHECK(r >= 1, "upscale factor must be positive");
    auto xc = x.contiguous();
    int64_t N = xc.size(0), Cin = xc.size(1), H = xc.size(2), W = xc.size(3);
    TORCH_CHECK(Cin % (r * r) == 0, "channels must be divisible by r*r");
    int64_t C = Cin / (r * r);
    auto out = torch::empty({N, C, H * r, W * r}, xc.options());
    long long total = out.numel();
    if (total == 0) return out;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    pixel_shuffle_naive_kernel<<<(unsigned int)blocks, threads>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), total, (int)C, (int)H, (int)W, (int)r);
    return out;
}
"""

ps_mod = load_inline(
    name="s45_pixel_shuffle_naive_out_index",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["pixel_shuffle_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, upscale_factor: int):
        super().__init__()
        self.upscale_factor = int(upscale_factor)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ps_mod.pixel_shuffle_cuda(x, self.upscale_factor)
