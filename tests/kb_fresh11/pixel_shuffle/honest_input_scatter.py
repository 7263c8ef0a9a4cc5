# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor pixel_shuffle_cuda(torch::Tensor x, int64_t r);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Input-ordered mapping: one thread per INPUT element, so reads are perfectly coalesced and each
// thread scatters its value to out[n, c, h*r+i, w*r+j] (writes are strided by r within a warp).

__global__ void pixel_shuffle_scatter_kernel(const float* __restrict__ in, float* __restrict__ out,
                                             long long total, int Cin, int H, int W, int r) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int w = (int)(idx % W);
    long long t = idx / W;
    int h = (int)(t % H);
    t /= H;
    int ic = (int)(t % Cin);
    long long n = t / Cin;
    int rr = r * r;
    int c = ic / rr;
    int rem = ic - c * rr;
    int i = rem / r;
    int j = rem - i * r;
    long long C = Cin / rr;
    long long OH = (long long)H * r, OW = (long long)W * r;
    long long oh = (long long)h * r + i;
    long long ow = (long long)w * r + j;
    out[((n * C + c) * OH + oh) * OW + ow] = in[idx];
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
    long long total = xc.numel();
    if (total == 0) return out;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    pixel_shuffle_scatter_kernel<<<(unsigned int)blocks, threads>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), total, (int)Cin, (int)H, (int)W, (int)r);
    return out;
}
"""

ps_mod = load_inline(
    name="s45_pixel_shuffle_input_scatter",
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
