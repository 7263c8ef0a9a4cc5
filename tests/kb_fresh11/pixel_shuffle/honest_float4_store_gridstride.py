# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor pixel_shuffle_cuda(torch::Tensor x, int64_t r);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Grid-stride loop over float4 chunks of the output: each iteration decomposes the index once,
// gathers 4 inputs through the read-only cache (__ldg) and issues one 16-byte store.
// A scalar grid-stride kernel handles shapes whose output row is not a multiple of 4.

__global__ void pixel_shuffle_vec4_kernel(const float* __restrict__ in, float4* __restrict__ out4,
                                          long long total4, int C, int H, int W, int r) {
    const int OH = H * r, OW4 = (W * r) >> 2;
    const long long plane = (long long)H * W;
    const long long Cin = (long long)C * r * r;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < total4; q += stride) {
        const int ow4 = (int)(q % OW4);
        const long long row = q / OW4;
        const int oh = (int)(row % OH);
        const long long nc = row / OH;
        const long long c = nc % C;
        const long long n = nc / C;
        const int h = oh / r, i = oh - h * r;
        const float* src = in + ((n * Cin + c * r * r + (long long)i * r) * H + h) * (long long)W;
        float v[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int ow = ow4 * 4 + k;
            const int w = ow / r;
            const int j = ow - w * r;
            v[k] = __ldg(src + j * plane + w);
        }
        out4[q] = make_float4(v[0], v[1], v[2], v[3]);
    }
}

__global__ void pixel_shuffle_scalar_kernel(const float* __restrict__ in, float* __restrict__ out,
                                            long long total, int C, int H, int W, int r) {
    const long long OW = (long long)W * r, OH = (long long)H * r;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        long long ow = idx % OW, t = idx / OW;
        long long oh = t % OH; t /= OH;
        long long c = t % C, n = t / C;
        long long ic = c * r * r + (oh % r) * r + (ow % r);
        out[idx] = __ldg(in + ((n * C * r * r + ic) * H + oh / r) * W + ow / r);
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
    long long total = out.numel();
    if (total == 0) return out;
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 80;
    const int threads = 256;
    const long long max_blocks = (long long)sms * 16;
    float* optr = out.data_ptr<float>();
    bool vec_ok = ((W * r) % 4 == 0) && ((reinterpret_cast<uintptr_t>(optr) & 15) == 0);
    if (vec_ok) {
        long long total4 = total / 4;
        long long blocks = (total4 + threads - 1) / threads;
        if (blocks > max_blocks) blocks = max_blocks;
        pixel_shuffle_vec4_kernel<<<(unsigned)blocks, threads>>>(
            xc.data_ptr<float>(), reinterpret_cast<float4*>(optr), total4, (int)C, (int)H, (int)W, (int)r);
    } else {
        long long blocks = (total + threads - 1) / threads;
        if (blocks > max_blocks) blocks = max_blocks;
        pixel_shuffle_scalar_kernel<<<(unsigned)blocks, threads>>>(
            xc.data_ptr<float>(), optr, total, (int)C, (int)H, (int)W, (int)r);
    }
    return out;
}
"""

ps_mod = load_inline(
    name="s45_pixel_shuffle_float4_store_gridstride",
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
