# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor upsample_sep_persistent(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define TH 16            // input rows per tile
#define TW 64            // input cols per tile
#define OTH (2 * TH)     // 32 output rows per tile
#define OTW (2 * TW)     // 128 output cols per tile
#define NTHREADS 256

// Persistent grid: each block loops over (plane, tile-row, tile-col) tiles.
// Per tile: (1) load (TH+2) x (TW+2) clamped input into smem, (2) horizontal 2x pass
// into a (TH+2) x OTW smem buffer, (3) vertical 2x pass written as float4 (or scalars).
__global__ void __launch_bounds__(NTHREADS)
upsample_sep_kernel(const float* __restrict__ x, float* __restrict__ y,
                    int NC, int H, int W, int tiles_y, int tiles_x, int vec_store) {
    __shared__ float s_in[TH + 2][TW + 2 + 1];
    __shared__ __align__(16) float s_h[TH + 2][OTW];
    const int OH = 2 * H, OW = 2 * W;
    const long long ntiles = (long long)NC * tiles_y * tiles_x;
    const int tid = threadIdx.x;

    for (long long tile = blockIdx.x; tile < ntiles; tile += gridDim.x) {
        int tx = (int)(tile % tiles_x);
        long long r = tile / tiles_x;
        int ty = (int)(r % tiles_y);
        long long nc = r / tiles_y;
        const float* p = x + nc * (long long)H * W;
        float* q = y + nc * (long long)OH * OW;
        const int iy0 = ty * TH - 1;
        const int ix0 = tx * TW - 1;

        // (1) clamped input tile with halo
        for (int k = tid; k < (TH + 2) * (TW + 2); k += NTHREADS) {
            int rr = k / (TW + 2), cc = k % (TW + 2);
            int gy = min(max(iy0 + rr, 0), H - 1);
            int gx = min(max(ix0 + cc, 0), W - 1);
            s_in[rr][cc] = __ldg(p + (long long)gy * W + gx);
        }
        __syncthreads();

        // (2) horizontal pass: output col oc -> input centre c = oc/2 + 1 (local)
        for (int k = tid; k < (TH + 2) * OTW; k += NTHREADS) {
            int rr = k / OTW, oc = k % OTW;
            int c = (oc >> 1) + 1;
            int cn = (oc & 1) ? c + 1 : c - 1;
            s_h[rr][oc] = 0.75f * s_in[rr][c] + 0.25f * s_in[rr][cn];
        }
        __syncthreads();

        // (3) vertical pass
        const int oy_base = ty * OTH;
        const int ox_base = tx * OTW;
        if (vec_store) {
            // OW % 4 == 0 and ox_base % 4 == 0: each float4 group is entirely in or out of range
            for (int k = tid; k < OTH * (OTW / 4); k += NTHREADS) {
                int ly = k / (OTW / 4);
                int lc = (k % (OTW / 4)) * 4;
                int oy = oy_base + ly, ox = ox_base + lc;
                if (oy >= OH || ox >= OW) continue;
                int rc = (ly >> 1) + 1;
                int rn = (ly & 1) ? rc + 1 : rc - 1;
                float4 a = *reinterpret_cast<const float4*>(&s_h[rc][lc]);
                float4 b = *reinterpret_cast<const float4*>(&s_h[rn][lc]);
                float4 o;
                o.x = 0.75f * a.x + 0.25f * b.x;
                o.y = 0.75f * a.y + 0.25f * b.y;
                o.z = 0.75f * a.z + 0.25f * b.z;
                o.w = 0.75f * a.w + 0.25f * b.w;
                *reinterpret_cast<float4*>(q + (long long)oy * OW + ox) = o;
            }
        } else {
            for (int k = tid; k < OTH * OTW; k += NTHREADS) {
                int ly = k / OTW, lc = k % OTW;
                int oy = oy_base + ly, ox = ox_base + lc;
                if (oy >= OH || ox >= OW) continue;
                int rc = (ly >> 1) + 1;
                int rn = (ly & 1) ? rc + 1 : rc - 1;
                q[(long long)oy * OW + ox] = 0.75f * s_h[rc][lc] + 0.25f * s_h[rn][lc];
            }
        }
        __syncthreads();   // smem is reused by the next tile
    }
}

torch::Tensor upsample_sep_persistent(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4, "x must be a 4-D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    auto y = torch::empty({N, C, 2 * H, 2 * W}, x.options());
    int NC = N * C;
    if (NC == 0 || H == 0 || W == 0) return y;
    int tiles_y = (H + TH - 1) / TH;
    int tiles_x = (W + TW - 1) / TW;
    long long ntiles = (long long)NC * tiles_y * tiles_x;

    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, upsample_sep_kernel, NTHREADS, 0);
    if (sms <= 0) sms = 1;
    if (per_sm <= 0) per_sm = 1;
    long long want = (long long)sms * per_sm;
    int blocks = (int)(ntiles < want ? ntiles : want);

    float* yp = y.data_ptr<float>();
    int vec_store = (W % 2 == 0) && ((reinterpret_cast<uintptr_t>(yp) & 15) == 0);
    upsample_sep_kernel<<<blocks, NTHREADS>>>(x.data_ptr<float>(), yp, NC, H, W, tiles_y, tiles_x, vec_store);
    return y;
}
"""

upsample_sep_mod = load_inline(
    name="upsample_bilinear2x_sep_persistent",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["upsample_sep_persistent"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return upsample_sep_mod.upsample_sep_persistent(x)
