# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor upsample_quad(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per INPUT pixel (i, j): it reads the edge-clamped 3x3 neighbourhood
// and writes the 2x2 output quad (2i..2i+1, 2j..2j+1) as two float2 stores.
// Fixed 2x weights: even output = 0.75*centre + 0.25*previous, odd = 0.75*centre + 0.25*next.
__global__ void upsample_quad_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     int H, int W) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int nc = blockIdx.z;
    if (i >= H || j >= W) return;
    const int OW = 2 * W;
    const float* p = x + (long long)nc * H * W;
    float* q = y + (long long)nc * (2LL * H) * OW;

    const int im = max(i - 1, 0), ip = min(i + 1, H - 1);
    const int jm = max(j - 1, 0), jp = min(j + 1, W - 1);
    const int rows[3] = {im, i, ip};
    float hl[3], hr[3];
#pragma unroll
    for (int k = 0; k < 3; ++k) {
        const float* r = p + rows[k] * W;
        float c = __ldg(r + j);
        hl[k] = 0.75f * c + 0.25f * __ldg(r + jm);
        hr[k] = 0.75f * c + 0.25f * __ldg(r + jp);
    }
    float2 top, bot;
    top.x = 0.75f * hl[1] + 0.25f * hl[0];
    top.y = 0.75f * hr[1] + 0.25f * hr[0];
    bot.x = 0.75f * hl[1] + 0.25f * hl[2];
    bot.y = 0.75f * hr[1] + 0.25f * hr[2];
    // 2*j is even and OW is even, so these float2 stores are 8-byte aligned
    // (the output comes fresh from the caching allocator).
    *reinterpret_cast<float2*>(q + (long long)(2 * i) * OW + 2 * j) = top;
    *reinterpret_cast<float2*>(q + (long long)(2 * i + 1) * OW + 2 * j) = bot;
}

torch::Tensor upsample_quad(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4, "x must be a 4-D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    auto y = torch::empty({N, C, 2 * H, 2 * W}, x.options());
    int NC = N * C;
    TORCH_CHECK(NC <= 65535, "N*C too large for grid.z");
    if (NC == 0 || H == 0 || W == 0) return y;
    TORCH_CHECK((reinterpret_cast<uintptr_t>(y.data_ptr<float>()) & 7) == 0, "output not 8-byte aligned");
    dim3 block(32, 8);
    dim3 grid((W + 31) / 32, (H + 7) / 8, NC);
    upsample_quad_kernel<<<grid, block>>>(x.data_ptr<float>(), y.data_ptr<float>(), H, W);
    return y;
}
"""

upsample_quad_mod = load_inline(
    name="upsample_bilinear2x_quad",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["upsample_quad"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return upsample_quad_mod.upsample_quad(x)
