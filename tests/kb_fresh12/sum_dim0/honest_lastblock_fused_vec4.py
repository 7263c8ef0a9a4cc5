# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor sum0_lastblock_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Strategy: single fused, deterministic kernel. Grid = (column tiles of 128 columns, row slabs).
// Each block reduces its slab with float4 loads (32 lanes x 8 row lanes, 4 independent
// accumulators), folds the 8 row lanes with a shared-memory tree and writes a partial row.
// A per-column-tile atomic counter (after __threadfence) elects the last block of each column tile,
// which sums all slab partials in a fixed order and writes the final result.
// Scalar fallback when C % 4 != 0 or pointers are not 16-byte aligned.

#define LQ 32
#define LY 8
#define NSLABS 128

__device__ __forceinline__ void add4(float4& a, const float4& b) {
    a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}

__global__ void __launch_bounds__(LQ * LY)
sum0_lastblock_kernel(const float4* __restrict__ x, float4* __restrict__ partial,
                      unsigned int* __restrict__ counters, float4* __restrict__ out,
                      int R, int C4, int rows_per) {
    __shared__ float4 s[LY][LQ];
    __shared__ bool s_last;
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int ct = blockIdx.x;
    const int slab = blockIdx.y;
    const int nslabs = gridDim.y;
    const int q = ct * LQ + tx;
    const bool qok = q < C4;
    const int r0 = slab * rows_per;
    const int r1 = min(r0 + rows_per, R);

    float4 a0 = make_float4(0.f, 0.f, 0.f, 0.f);
    float4 a1 = a0, a2 = a0, a3 = a0;
    if (qok) {
        int r = r0 + ty;
        for (; r + 3 * LY < r1; r += 4 * LY) {
            float4 v0 = __ldg(&x[(size_t)(r) * C4 + q]);
            float4 v1 = __ldg(&x[(size_t)(r + LY) * C4 + q]);
            float4 v2 = __ldg(&x[(size_t)(r + 2 * LY) * C4 + q]);
            float4 v3 = __ldg(&x[(size_t)(r + 3 * LY) * C4 + q]);
            add4(a0, v0); add4(a1, v1); add4(a2, v2); add4(a3, v3);
        }
        for (; r < r1; r += LY) add4(a0, __ldg(&x[(size_t)r * C4 + q]));
    }
    add4(a0, a1); add4(a2, a3); add4(a0, a2);
    s[ty][tx] = a0;
    __syncthreads();
#pragma unroll
    for (int st = LY / 2; st > 0; st >>= 1) {
        if (ty < st) add4(s[ty][tx], s[ty + st][tx]);
        __syncthreads();
    }
    if (ty == 0 && qok) partial[(size_t)slab * C4 + q] = s[0][tx];
    __threadfence();   // make this block's partials visible device-wide before counting it
    __syncthreads();
    if (tx == 0 && ty == 0) {
        unsigned int prev = atomicAdd(&counters[ct], 1u);
        s_last = (prev == (unsigned int)(nslabs - 1));
    }
    __syncthreads();
    if (!s_last) return;

    // last block for this column tile: combine all slab partials in a fixed order
    __threadfence();
    float4 t = make_float4(0.f, 0.f, 0.f, 0.f);
    if (qok) {
        for (int k = ty; k < nslabs; k += LY) add4(t, __ldcg(&partial[(size_t)k * C4 + q]));
    }
    s[ty][tx] = t;
    __syncthreads();
#pragma unroll
    for (int st = LY / 2; st > 0; st >>= 1) {
        if (ty < st) add4(s[ty][tx], s[ty + st][tx]);
        __syncthreads();
    }
    if (ty == 0 && qok) out[q] = s[0][tx];
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

torch::Tensor sum0_lastblock_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    auto xc = x.contiguous();
    int R = (int)xc.size(0);
    int C = (int)xc.size(1);
    if (R == 0 || C == 0) return torch::zeros({(long)C}, xc.options());
    const float* xp = xc.data_ptr<float>();
    int nslabs = R < NSLABS ? R : NSLABS;
    int rows_per = (R + nslabs - 1) / nslabs;
    nslabs = (R + rows_per - 1) / rows_per;  // every slab non-empty
    auto out = torch::empty({(long)C}, xc.options());
    bool vec_ok = (C % 4 == 0) &&
                  ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
                  ((reinterpret_cast<uintptr_t>(out.data_ptr<float>()) & 15) == 0);
    if (!vec_ok) {
        out = torch::zeros({(long)C}, xc.options());
        dim3 grid((C + 255) / 256, nslabs);
        sum0_scalar_kernel<<<grid, 256>>>(xp, out.data_ptr<float>(), R, C, rows_per);
        return out;
    }
    int C4 = C / 4;
    int n_col_tiles = (C4 + LQ - 1) / LQ;
    auto partial = torch::empty({(long)nslabs * C4 * 4}, xc.options());
    auto counters = torch::zeros({(long)n_col_tiles}, xc.options().dtype(torch::kInt32));
    dim3 block(LQ, LY);
    dim3 grid(n_col_tiles, nslabs);
    sum0_lastblock_kernel<<<grid, block>>>(
        reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(partial.data_ptr<float>()),
        reinterpret_cast<unsigned int*>(counters.data_ptr<int>()),
        reinterpret_cast<float4*>(out.data_ptr<float>()), R, C4, rows_per);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_sum0_lastblock_fused_vec4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["sum0_lastblock_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.sum0_lastblock_cuda(x)
