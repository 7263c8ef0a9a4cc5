# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor laplacian3d_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// z-marching with a register queue: a 32x8 block covers an (x, y) tile and each thread walks a chunk
// of z slices, keeping x[z-1], x[z], x[z+1] of its column in registers so every value along z is
// loaded once; the four in-plane neighbours come straight from global memory via the read-only cache.

#define BX 32
#define BY 8
#define ZCHUNK 32

__global__ void laplacian3d_zmarch_reg_kernel(const float* __restrict__ in, float* __restrict__ out,
                                              int D, int H, int W) {
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    if (x >= W || y >= H) return;           // no block-level synchronisation below
    const int z0 = blockIdx.z * ZCHUNK;
    const int z1 = min(z0 + ZCHUNK, D);
    const long long sz = (long long)H * W;
    const long long col = (long long)y * W + x;
    const bool hasL = x > 0, hasR = x < W - 1, hasU = y > 0, hasDn = y < H - 1;

    float prev = (z0 > 0) ? __ldg(in + (z0 - 1) * sz + col) : 0.0f;
    float cur = __ldg(in + z0 * sz + col);
    for (int z = z0; z < z1; ++z) {
        const long long p = z * sz + col;
        const float next = (z + 1 < D) ? __ldg(in + p + sz) : 0.0f;
        float s = prev + next;
        if (hasL)  s += __ldg(in + p - 1);
        if (hasR)  s += __ldg(in + p + 1);
        if (hasU)  s += __ldg(in + p - W);
        if (hasDn) s += __ldg(in + p + W);
        out[p] = s - 6.0f * cur;
        prev = cur;
        cur = next;
    }
}

torch::Tensor laplacian3d_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 3, "x must be 3-D (D, H, W)");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int D = (int)xc.size(0), H = (int)xc.size(1), W = (int)xc.size(2);
    if (xc.numel() == 0) return out;
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY, (D + ZCHUNK - 1) / ZCHUNK);
    TORCH_CHECK(grid.y <= 65535 && grid.z <= 65535, "volume too large for this tiling");
    laplacian3d_zmarch_reg_kernel<<<grid, block>>>(xc.data_ptr<float>(), out.data_ptr<float>(), D, H, W);
    return out;
}
"""

lap_mod = load_inline(
    name="s45_laplacian3d_zmarch_registers",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["laplacian3d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return lap_mod.laplacian3d_cuda(x)
