# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cdist_ws_cpp = "torch::Tensor cdist_ws_forward(torch::Tensor x, torch::Tensor y);"

cdist_ws_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

// A block caches RX=8 rows of x in shared memory; each warp walks y rows in a grid-stride
// loop over the block's column chunk. Lanes split the feature dimension (float4 when
// D % 4 == 0 and the pointers are 16-byte aligned, scalar otherwise), accumulate 8 partial
// squared distances and reduce them with __shfl_xor_sync. Lanes 0..7 then each write one result.
#define RX 8
#define WARPS 8
#define COLS_PER_BLOCK 256
#define MAXD 1024

template <bool VEC>
__global__ void __launch_bounds__(WARPS * 32)
cdist_ws_kernel(const float* __restrict__ x, const float* __restrict__ y,
                float* __restrict__ out, int M, int N, int D) {
    __shared__ __align__(16) float xs[RX * MAXD];
    const int i0 = blockIdx.y * RX;
    const int nrows = min(RX, M - i0);
    for (int e = threadIdx.x; e < RX * D; e += blockDim.x) {
        int r = e / D, k = e - r * D;
        xs[r * D + k] = (r < nrows) ? x[(long long)(i0 + r) * D + k] : 0.0f;
    }
    __syncthreads();

    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int jbeg = blockIdx.x * COLS_PER_BLOCK;
    const int jend = min(N, jbeg + COLS_PER_BLOCK);
    for (int j = jbeg + warp; j < jend; j += WARPS) {
        const float* yr = y + (long long)j * D;
        float acc[RX];
#pragma unroll
        for (int r = 0; r < RX; ++r) acc[r] = 0.0f;
        if (VEC) {
            for (int k = lane * 4; k < D; k += 128) {
                const float4 b = __ldg(reinterpret_cast<const float4*>(yr + k));
#pragma unroll
                for (int r = 0; r < RX; ++r) {
                    const float4 a = *reinterpret_cast<const float4*>(xs + r * D + k);
                    float d0 = a.x - b.x, d1 = a.y - b.y, d2 = a.z - b.z, d3 = a.w - b.w;
                    acc[r] += d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
                }
            }
        } else {
            for (int k = lane; k < D; k += 32) {
                const float b = __ldg(yr + k);
#pragma unroll
                for (int r = 0; r < RX; ++r) {
                    float d = xs[r * D + k] - b;
                    acc[r] += d * d;
                }
            }
        }
#pragma unroll
        for (int r = 0; r < RX; ++r) {
#pragma unroll
            for (int o = 16; o > 0; o >>= 1) acc[r] += __shfl_xor_sync(0xffffffffu, acc[r], o);
        }
        // every lane now holds all 8 totals; lane r writes row r
        float mine = acc[0];
#pragma unroll
        for (int r = 1; r < RX; ++r) if (lane == r) mine = acc[r];
        if (lane < nrows) out[(long long)(i0 + lane) * N + j] = sqrtf(mine);
    }
}

torch::Tensor cdist_ws_forward(torch::Tensor x, torch::Tensor y) {
    TORCH_CHECK(x.is_cuda() && y.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && y.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 2 && y.dim() == 2 && x.size(1) == y.size(1), "shape mismatch");
    x = x.contiguous();
    y = y.contiguous();
    int M = x.size(0), N = y.size(0), D = x.size(1);
    TORCH_CHECK(D <= MAXD, "feature dimension too large for this kernel");
    auto out = torch::empty({M, N}, x.options());
    if (M == 0 || N == 0) return out;
    const bool vec = (D % 4 == 0) &&
                     ((reinterpret_cast<uintptr_t>(x.data_ptr<float>()) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(y.data_ptr<float>()) & 15) == 0);
    dim3 grid((N + COLS_PER_BLOCK - 1) / COLS_PER_BLOCK, (M + RX - 1) / RX);
    TORCH_CHECK(grid.y <= 65535, "too many rows");
    if (vec)
        cdist_ws_kernel<true><<<grid, WARPS * 32>>>(x.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(), M, N, D);
    else
        cdist_ws_kernel<false><<<grid, WARPS * 32>>>(x.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(), M, N, D);
    return out;
}
"""

cdist_ws_mod = load_inline(
    name="cdist_warp_shuffle_rowgroups_kb7",
    cpp_sources=cdist_ws_cpp,
    cuda_sources=cdist_ws_cuda,
    functions=["cdist_ws_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return cdist_ws_mod.cdist_ws_forward(x, y)
