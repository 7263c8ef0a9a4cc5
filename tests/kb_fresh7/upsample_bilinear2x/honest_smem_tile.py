# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor upsample_smem_tile(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define OUT_TILE 32             // output tile is 32 x 32
#define IN_TILE (OUT_TILE / 2)  // covers 16 x 16 input pixels
#define HALO_TILE (IN_TILE + 2) // plus a one-pixel (edge-clamped) halo

// For an exact 2x upsample with align_corners=False:
//   out[2i]   = 0.75 * in[i] + 0.25 * in[max(i-1, 0)]
//   out[2i+1] = 0.75 * in[i] + 0.25 * in[min(i+1, n-1)]
// applied separably in both dimensions.
__global__ void upsample_smem_tile_kernel(const float* __restrict__ x, float* __restrict__ y,
                                          int H, int W, int OH, int OW) {
    __shared__ float tile[HALO_TILE][HALO_TILE + 1];
    const int nc = blockIdx.z;
    const float* plane = x + (long long)nc * H * W;
    float* oplane = y + (long long)nc * OH * OW;
    const int oy0 = blockIdx.y * OUT_TILE;
    const int ox0 = blockIdx.x * OUT_TILE;
    const int iy0 = oy0 / 2 - 1;
    const int ix0 = ox0 / 2 - 1;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int nthreads = blockDim.x * blockDim.y;

    for (int k = tid; k < HALO_TILE * HALO_TILE; k += nthreads) {
        int r = k / HALO_TILE, c = k % HALO_TILE;
        int gy = min(max(iy0 + r, 0), H - 1);
        int gx = min(max(ix0 + c, 0), W - 1);
        tile[r][c] = plane[gy * W + gx];
    }
    __syncthreads();

    const int lx = threadIdx.x;             // 0..31
    const int ox = ox0 + lx;
    const int cc = lx / 2 + 1;
    const int cn = (lx & 1) ? cc + 1 : cc - 1;
    for (int ly = threadIdx.y; ly < OUT_TILE; ly += blockDim.y) {
        int oy = oy0 + ly;
        if (oy >= OH || ox >= OW) continue;
        int rc = ly / 2 + 1;
        int rn = (ly & 1) ? rc + 1 : rc - 1;
        float a = 0.75f * tile[rc][cc] + 0.25f * tile[rc][cn];
        float b = 0.75f * tile[rn][cc] + 0.25f * tile[rn][cn];
        oplane[(long long)oy * OW + ox] = 0.75f * a + 0.25f * b;
    }
}

torch::Tensor upsample_smem_tile(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4, "x must be a 4-D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    int OH = 2 * H, OW = 2 * W;
    auto y = torch::empty({N, C, OH, OW}, x.options());
    int NC = N * C;
    TORCH_CHECK(NC <= 65535, "N*C too large for grid.z");
    if (NC == 0 || H == 0 || W == 0) return y;
    dim3 block(32, 8);
    dim3 grid((OW + OUT_TILE - 1) / OUT_TILE, (OH + OUT_TILE - 1) / OUT_TILE, NC);
    upsample_smem_tile_kernel<<<grid, block>>>(x.data_ptr<float>(), y.data_ptr<float>(), H, W, OH, OW);
    return y;
}
"""

upsample_smem_tile_mod = load_inline(
    name="upsample_bilinear2x_smem_tile",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["upsample_smem_tile"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return upsample_smem_tile_mod.upsample_smem_tile(x)
