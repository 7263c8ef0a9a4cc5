# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor sum0_warp_shuffle_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Strategy: each warp reads a 4-row x 32-column patch per step with float4 loads
// (lane = row_sub * 8 + column_quad, every row segment is one 128-byte line). A block of 8 warps
// covers 256 columns over one slab of rows. At the end the 4 row_sub partials of each column quad
// are folded with __shfl_xor_sync and lanes 0..7 atomically add their 4 column sums to the output.
// Scalar fallback when C % 4 != 0 or the input pointer is not 16-byte aligned.

#define WARPS 8
#define QUADS_PER_WARP 8
#define QUADS_PER_BLOCK (WARPS * QUADS_PER_WARP)
#define NSLABS 256

__device__ __forceinline__ void add4(float4& a, const float4& b) {
    a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}

__global__ void __launch_bounds__(WARPS * 32)
sum0_warp_shuffle_kernel(const float4* __restrict__ x, float* __restrict__ out,
                         int R, int C4, int rows_per) {
    const int warp = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    const int rsub = lane >> 3;   // 0..3
    const int cq = lane & 7;      // 0..7
    const int q = blockIdx.x * QUADS_PER_BLOCK + warp * QUADS_PER_WARP + cq;
    const bool qok = q < C4;
    const int r0 = blockIdx.y * rows_per;
    const int r1 = min(r0 + rows_per, R);

    float4 a0 = make_float4(0.f, 0.f, 0.f, 0.f);
    float4 a1 = a0, a2 = a0, a3 = a0;
    if (qok) {
        int r = r0 + rsub;
        for (; r + 12 < r1; r += 16) {
            float4 v0 = __ldg(&x[(size_t)(r + 0) * C4 + q]);
            float4 v1 = __ldg(&x[(size_t)(r + 4) * C4 + q]);
            float4 v2 = __ldg(&x[(size_t)(r + 8) * C4 + q]);
            float4 v3 = __ldg(&x[(size_t)(r + 12) * C4 + q]);
            add4(a0, v0); add4(a1, v1); add4(a2, v2); add4(a3, v3);
        }
        for (; r < r1; r += 4) add4(a0, __ldg(&x[(size_t)r * C4 + q]));
    }
    add4(a0, a1); add4(a2, a3); add4(a0, a2);

    // fold the 4 row_sub lanes (lane, lane^8, lane^16, lane^24) -- all lanes participate
#pragma unroll
    for (int m = 8; m <= 16; m <<= 1) {
        a0.x += __shfl_xor_sync(0xffffffffu, a0.x, m);
        a0.y += __shfl_xor_sync(0xffffffffu, a0.y, m);
        a0.z += __shfl_xor_sync(0xffffffffu, a0.z, m);
        a0.w += __shfl_xor_sync(0xffffffffu, a0.w, m);
    }
    if (rsub == 0 && qok) {
        float* o = out + (size_t)q * 4;
        atomicAdd(o + 0, a0.x);
        atomicAdd(o + 1, a0.y);
        atomicAdd(o + 2, a0.z);
        atomicAdd(o + 3, a0.w);
    }
}

__global__ void sum0_scalar_kernel(const float* __restrict__ x, float* __restrict__ out,
                                   int R, int C, int rows_per) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    int r0 = blockIdx.y * rows_per;
    int r1 = min(r0 + rows_per, R);
    float s = 0.f;
    for (int r = r0; r < r1; ++r) s += x[(size_t)r * C + c];
    atomicAdd(&out[c], s);
}

torch::Tensor sum0_warp_shuffle_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    auto xc = x.contiguous();
    int R = (int)xc.size(0);
    int C = (int)xc.size(1);
    auto out = torch::zeros({(long)C}, xc.options());
    if (R == 0 || C == 0) return out;
    const float* xp = xc.data_ptr<float>();
    int nslabs = R < NSLABS ? R : NSLABS;
    int rows_per = (R + nslabs - 1) / nslabs;
    bool vec_ok = (C % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);
    if (vec_ok) {
        int C4 = C / 4;
        dim3 grid((C4 + QUADS_PER_BLOCK - 1) / QUADS_PER_BLOCK, nslabs);
        sum0_warp_shuffle_kernel<<<grid, WARPS * 32>>>(reinterpret_cast<const float4*>(xp),
                                                       out.data_ptr<float>(), R, C4, rows_per);
    } else {
        dim3 grid((C + 255) / 256, nslabs);
        sum0_scalar_kernel<<<grid, 256>>>(xp, out.data_ptr<float>(), R, C, rows_per);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_sum0_warp_shuffle_vec4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["sum0_warp_shuffle_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.sum0_warp_shuffle_cuda(x)
