# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
// Strategy: shared-memory-free transpose. Each warp owns one 32x32 tile: lane l loads column l of
// the tile (32 coalesced row reads into 32 registers), the warp transposes the 32x32 lane-by-register
// matrix with a 5-stage butterfly of __shfl_xor_sync exchanges, and lane l then holds row l of the
// tile, which it writes as column l of 32 coalesced output rows.
#include <torch/extension.h>
#include <cuda_runtime.h>

#define WARPS 8

__global__ void __launch_bounds__(WARPS * 32) warp_shfl_transpose_kernel(
        const float* __restrict__ x, float* __restrict__ out,
        int R, int C, long long tilesC, long long numTiles) {
    const int lane = threadIdx.x & 31;
    const long long tile = (long long)blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (tile >= numTiles) return;               // uniform per warp
    const long long tr = (tile / tilesC) * 32;
    const long long tc = (tile % tilesC) * 32;
    const bool full = (tr + 32 <= R) && (tc + 32 <= C);

    // v[i] = x[tr + i][tc + lane]
    float v[32];
    if (full) {
        const float* src = x + tr * C + tc + lane;
#pragma unroll
        for (int i = 0; i < 32; ++i) v[i] = __ldg(src + (long long)i * C);
    } else {
        const bool colok = (tc + lane) < C;
#pragma unroll
        for (int i = 0; i < 32; ++i)
            v[i] = (colok && (tr + i) < R) ? __ldg(x + (tr + i) * C + tc + lane) : 0.0f;
    }

    // Butterfly transpose of the (lane, reg) matrix: in stage m the element at (lane, reg) with
    // bit m of lane != bit m of reg moves to (lane ^ m, reg ^ m).
#pragma unroll
    for (int s = 4; s >= 0; --s) {
        const int m = 1 << s;
        const bool upper = (lane & m) != 0;
#pragma unroll
        for (int i0 = 0; i0 < 32; ++i0) {
            if ((i0 & m) == 0) {
                const int i1 = i0 | m;
                float send = upper ? v[i0] : v[i1];
                float recv = __shfl_xor_sync(0xffffffffu, send, m);
                v[i0] = upper ? recv : v[i0];
                v[i1] = upper ? v[i1] : recv;
            }
        }
    }

    // now v[j] = x[tr + lane][tc + j]  ->  out[tc + j][tr + lane]
    if (full) {
        float* dst = out + tc * R + tr + lane;
#pragma unroll
        for (int j = 0; j < 32; ++j) dst[(long long)j * R] = v[j];
    } else {
        const bool rowok = (tr + lane) < R;
#pragma unroll
        for (int j = 0; j < 32; ++j)
            if (rowok && (tc + j) < C) out[(tc + j) * R + tr + lane] = v[j];
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
    long long tilesR = (R + 31) / 32;
    long long tilesC = (C + 31) / 32;
    long long numTiles = tilesR * tilesC;
    long long blocks = (numTiles + WARPS - 1) / WARPS;
    TORCH_CHECK(blocks <= 2147483647LL, "tensor too large");
    warp_shfl_transpose_kernel<<<(unsigned)blocks, WARPS * 32>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), (int)R, (int)C, tilesC, numTiles);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_transpose2d_warp_shuffle",
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
