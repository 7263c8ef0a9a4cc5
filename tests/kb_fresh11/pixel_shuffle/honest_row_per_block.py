# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor pixel_shuffle_cuda(torch::Tensor x, int64_t r);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// One thread block per output row (n, c, oh): the row's index math is done once per block, then the
// threads stride across the row; each output column ow reads input channel c*r*r + i*r + (ow % r)
// at column ow / r. Writes are coalesced, reads come from r interleaved input rows.

__global__ void pixel_shuffle_row_kernel(const float* __restrict__ in, float* __restrict__ out,
                                         int C, int H, int W, int r) {
    const long long row = blockIdx.x;              // flat (n, c, oh)
    const int OH = H * r, OW = W * r;
    const int oh = (int)(row % OH);
    const long long nc = row / OH;
    const int c = (int)(nc % C);
    const long long n = nc / C;
    const int h = oh / r, i = oh - (oh / r) * r;
    const long long Cin = (long long)C * r * r;
    // base of input channel (c*r*r + i*r + 0), row h
    const long long chan0 = n * Cin + (long long)c * r * r + (long long)i * r;
    const float* src = in + (chan0 * H + h) * (long long)W;
    const long long plane = (long long)H * W;
    float* dst = out + row * (long long)OW;
    for (int ow = threadIdx.x; ow < OW; ow += blockDim.x) {
        int w = ow / r;
        int j = ow - w * r;
        dst[ow] = __ldg(src + j * plane + w);
    }
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
    if (out.numel() == 0) return out;
    long long rows = N * C * H * r;
    TORCH_CHECK(rows < 2147483647LL, "too many output rows");
    int OW = (int)(W * r);
    int threads = OW >= 256 ? 256 : ((OW + 31) / 32) * 32;
    pixel_shuffle_row_kernel<<<(unsigned int)rows, threads>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), (int)C, (int)H, (int)W, (int)r);
    return out;
}
"""

ps_mod = load_inline(
    name="s45_pixel_shuffle_row_per_block",
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
