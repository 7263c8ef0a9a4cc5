# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
// Strategy: persistent, software-pipelined tiled transpose. The grid is sized to the number of
// co-resident blocks (occupancy API) and each block walks 64x64 tiles with a grid stride. While the
// current tile is written out of shared memory, the next tile's float4 loads are already in flight
// into registers; shared memory is double-buffered so one barrier per tile suffices. Streaming cache
// hints (__ldcs/__stcs) since every byte is touched once. Scalar tiled fallback for odd sizes.
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define TM 64
#define PITCH 65
#define NT 256

__device__ __forceinline__ void load_tile_regs(const float* __restrict__ x, int R, int C,
                                               long long tr, long long tc, int cg, int rbase,
                                               float4 (&pre)[4]) {
    const long long gc = tc + cg * 4;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        const long long gr = tr + rbase + 16 * q;
        if (gr < R && gc < C)
            pre[q] = __ldcs(reinterpret_cast<const float4*>(x + gr * C + gc));
        else
            pre[q] = make_float4(0.f, 0.f, 0.f, 0.f);
    }
}

__global__ void __launch_bounds__(NT) persistent_transpose_kernel(const float* __restrict__ x,
                                                                  float* __restrict__ out,
                                                                  int R, int C, long long tilesC,
                                                                  long long numTiles) {
    __shared__ float tile[2][TM][PITCH];
    const int t = threadIdx.x;
    const int lane = t & 31;
    const int w = t >> 5;
    // load mapping: warp = 4 rows x 8 float4 chunks
    const int cg = (w & 1) * 8 + (lane & 7);
    const int rbase = (w >> 1) * 4 + (lane >> 3);
    // store mapping: warp = 4 output rows x 8 float4 chunks
    const int rg = (w & 1) * 8 + (lane & 7);
    const int obase = (w >> 1) * 4 + (lane >> 3);

    long long id = blockIdx.x;
    if (id >= numTiles) return;   // uniform per block
    float4 pre[4];
    load_tile_regs(x, R, C, (id / tilesC) * TM, (id % tilesC) * TM, cg, rbase, pre);
    int buf = 0;
    for (; id < numTiles; id += gridDim.x) {
        const long long tr = (id / tilesC) * TM;
        const long long tc = (id % tilesC) * TM;
        // stash the prefetched tile
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const int row = rbase + 16 * q;
            float* srow = &tile[buf][row][cg * 4];
            srow[0] = pre[q].x;
            srow[1] = pre[q].y;
            srow[2] = pre[q].z;
            srow[3] = pre[q].w;
        }
        __syncthreads();
        // issue the loads of the next tile before draining this one
        const long long nid = id + gridDim.x;
        if (nid < numTiles)
            load_tile_regs(x, R, C, (nid / tilesC) * TM, (nid % tilesC) * TM, cg, rbase, pre);
        const long long gr = tr + rg * 4;
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const int oc = obase + 16 * q;
            const long long go = tc + oc;
            if (go < C && gr < R) {
                float4 v = make_float4(tile[buf][rg * 4 + 0][oc], tile[buf][rg * 4 + 1][oc],
                                       tile[buf][rg * 4 + 2][oc], tile[buf][rg * 4 + 3][oc]);
                __stcs(reinterpret_cast<float4*>(out + go * R + gr), v);
            }
        }
        buf ^= 1;   // next tile goes to the other buffer: no second barrier needed
    }
}

__global__ void tile32_scalar_kernel(const float* __restrict__ x, float* __restrict__ out,
                                     int R, int C) {
    __shared__ float tile[32][33];
    const int c = blockIdx.x * 32 + threadIdx.x;
    const int r0 = blockIdx.y * 32 + threadIdx.y;
    for (int i = 0; i < 32; i += 8) {
        int r = r0 + i;
        if (r < R && c < C) tile[threadIdx.y + i][threadIdx.x] = x[(long long)r * C + c];
    }
    __syncthreads();
    const int ocol = blockIdx.y * 32 + threadIdx.x;
    const int orow0 = blockIdx.x * 32 + threadIdx.y;
    for (int i = 0; i < 32; i += 8) {
        int orow = orow0 + i;
        if (orow < C && ocol < R) out[(long long)orow * R + ocol] = tile[threadIdx.x][threadIdx.y + i];
    }
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    long long R = xc.size(0);
    long long C = xc.size(1);
    auto out = torch::empty({C, R}, xc.options());
    if (R == 0 || C == 0) return out;
    TORCH_CHECK(R < 2147483647LL - 64 && C < 2147483647LL - 64, "dimension too large");
    const float* xp = xc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    bool vec_ok = (R % 4 == 0) && (C % 4 == 0) &&
                  ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
                  ((reinterpret_cast<uintptr_t>(op) & 15) == 0);
    if (vec_ok) {
        long long tilesC = (C + TM - 1) / TM;
        long long numTiles = ((R + TM - 1) / TM) * tilesC;
        int dev = 0, sms = 0, perSM = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, persistent_transpose_kernel, NT, 0);
        if (sms < 1) sms = 1;
        if (perSM < 1) perSM = 1;
        long long blocks = (long long)sms * perSM;
        if (blocks > numTiles) blocks = numTiles;
        persistent_transpose_kernel<<<(unsigned)blocks, NT>>>(
            xp, op, (int)R, (int)C, tilesC, numTiles);
    } else {
        dim3 grid((unsigned)((C + 31) / 32), (unsigned)((R + 31) / 32));
        TORCH_CHECK(grid.y <= 65535u, "too many rows for this grid layout");
        tile32_scalar_kernel<<<grid, dim3(32, 8)>>>(xp, op, (int)R, (int)C);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_transpose2d_persistent_pipelined",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x)
