# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor laplacian3d_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// 3-D shared-memory tiling: a 32x4x4 thread block cooperatively loads its (4+2)x(4+2)x(32+2) input
// box (halo included, zeros outside the volume) into shared memory, synchronises, and each thread
// evaluates the 7-point stencil from shared memory.

#define BX 32
#define BY 4
#define BZ 4
#define SX (BX + 2)
#define SY (BY + 2)
#define SZ (BZ + 2)

__global__ void laplacian3d_smem_cube_kernel(const float* __restrict__ in, float* __restrict__ out,
                                             int D, int H, int W) {
    __shared__ float s[SZ][SY][SX];
    const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    const int x0 = blockIdx.x * BX, y0 = blockIdx.y * BY, z0 = blockIdx.z * BZ;
    const long long sy = W, sz = (long long)H * W;
    const int tid = (tz * BY + ty) * BX + tx;
    const int nthreads = BX * BY * BZ;
    for (int e = tid; e < SX * SY * SZ; e += nthreads) {
        const int lx = e % SX;
        const int ly = (e / SX) % SY;
        const int lz = e / (SX * SY);
        const int gx = x0 + lx - 1, gy = y0 + ly - 1, gz = z0 + lz - 1;
        float v = 0.0f;
        if (gx >= 0 && gx < W && gy >= 0 && gy < H && gz >= 0 && gz < D)
            v = __ldg(in + gz * sz + gy * sy + gx);
        s[lz][ly][lx] = v;
    }
    __syncthreads();
    const int x = x0 + tx, y = y0 + ty, z = z0 + tz;
    if (x < W && y < H && z < D) {
        const int lx = tx + 1, ly = ty + 1, lz = tz + 1;
        const float c = s[lz][ly][lx];
        const float r = s[lz - 1][ly][lx] + s[lz + 1][ly][lx]
                      + s[lz][ly - 1][lx] + s[lz][ly + 1][lx]
                      + s[lz][ly][lx - 1] + s[lz][ly][lx + 1] - 6.0f * c;
        out[z * sz + y * sy + x] = r;
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
    dim3 block(BX, BY, BZ);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY, (D + BZ - 1) / BZ);
    TORCH_CHECK(grid.y <= 65535 && grid.z <= 65535, "volume too large for this tiling");
    laplacian3d_smem_cube_kernel<<<grid, block>>>(xc.data_ptr<float>(), out.data_ptr<float>(), D, H, W);
    return out;
}
"""

lap_mod = load_inline(
    name="s45_laplacian3d_smem_cube",
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
