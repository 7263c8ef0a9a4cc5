# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor batched_matvec_smem(torch::Tensor a, torch::Tensor v);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define WARPS 8
#define ROWS_PER_WARP 4
#define ROWS_PER_BLOCK (WARPS * ROWS_PER_WARP)   // 32 rows of one batch per block
#define KCHUNK 2048                              // 8 KB of v staged in shared memory per pass

// grid = (ceil(M / 32), B). The block stages v[b] in shared memory in chunks
// of 2048 floats; each warp owns 4 rows and keeps 4 accumulators, so every v
// element read from shared memory is reused for 4 rows (register blocking).
// VEC = true uses float4 loads for a, v and the shared buffer (needs K % 4 == 0
// and 16-byte aligned a / v); VEC = false is the scalar fallback.
template <bool VEC>
__global__ void __launch_bounds__(WARPS * 32)
batched_matvec_smem_kernel(const float* __restrict__ a,
                           const float* __restrict__ v,
                           float* __restrict__ out,
                           int M, int K) {
    __shared__ __align__(16) float vs[KCHUNK];
    const int b = blockIdx.y;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int m0 = blockIdx.x * ROWS_PER_BLOCK + warp * ROWS_PER_WARP;
    const float* vb = v + (size_t)b * K;
    const float* abase = a + ((size_t)b * M) * K;

    float acc[ROWS_PER_WARP];
    #pragma unroll
    for (int i = 0; i < ROWS_PER_WARP; ++i) acc[i] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += KCHUNK) {
        const int len = min(KCHUNK, K - k0);
        if (VEC) {
            const float4* src = reinterpret_cast<const float4*>(vb + k0);
            float4* dst = reinterpret_cast<float4*>(vs);
            for (int j = threadIdx.x; j < len / 4; j += WARPS * 32) dst[j] = __ldg(src + j);
        } else {
            for (int j = threadIdx.x; j < len; j += WARPS * 32) vs[j] = __ldg(vb + k0 + j);
        }
        __syncthreads();

        // Rows past M (last block only) are clamped to row M - 1: they are
        // loaded and computed but never stored, which keeps the loop branch-free.
        const float* rows[ROWS_PER_WARP];
        #pragma unroll
        for (int i = 0; i < ROWS_PER_WARP; ++i) {
            const int m = min(m0 + i, M - 1);
            rows[i] = abase + (size_t)m * K + k0;
        }
        if (VEC) {
            const float4* vs4 = reinterpret_cast<const float4*>(vs);
            #pragma unroll 2
            for (int j = lane; j < len / 4; j += 32) {
                const float4 y = vs4[j];              // one shared-memory read feeds 4 rows
                #pragma unroll
                for (int i = 0; i < ROWS_PER_WARP; ++i) {
                    const float4 x = __ldg(reinterpret_cast<const float4*>(rows[i]) + j);
                    acc[i] = fmaf(x.x, y.x, acc[i]);
                    acc[i] = fmaf(x.y, y.y, acc[i]);
                    acc[i] = fmaf(x.z, y.z, acc[i]);
                    acc[i] = fmaf(x.w, y.w, acc[i]);
                }
            }
        } else {
            for (int j = lane; j < len; j += 32) {
                const float y = vs[j];
                #pragma unroll
                for (int i = 0; i < ROWS_PER_WARP; ++i) acc[i] = fmaf(__ldg(rows[i] + j), y, acc[i]);
            }
        }
        __syncthreads();                          // vs is overwritten by the next chunk
    }

    #pragma unroll
    for (int i = 0; i < ROWS_PER_WARP; ++i) {
        float s = acc[i];
        #pragma unroll
        for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
        const int m = m0 + i;
        if (lane == 0 && m < M) out[(size_t)b * M + m] = s;
    }
}

static inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

torch::Tensor batched_matvec_smem(torch::Tensor a, torch::Tensor v) {
    TORCH_CHECK(a.is_cuda() && v.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && v.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(a.dim() == 3 && v.dim() == 2, "a must be (B, M, K), v must be (B, K)");
    TORCH_CHECK(a.size(0) == v.size(0) && a.size(2) == v.size(1), "shape mismatch");
    auto ac = a.contiguous();
    auto vc = v.contiguous();
    const int B = (int)ac.size(0), M = (int)ac.size(1), K = (int)ac.size(2);
    auto out = torch::empty({B, M}, ac.options());
    if (B == 0 || M == 0) return out;
    TORCH_CHECK(B <= 65535, "batch too large for grid.y");
    const float* ap = ac.data_ptr<float>();
    const float* vp = vc.data_ptr<float>();
    dim3 grid((M + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK, B);
    if ((K % 4) == 0 && aligned16(ap) && aligned16(vp)) {
        batched_matvec_smem_kernel<true><<<grid, WARPS * 32>>>(ap, vp, out.data_ptr<float>(), M, K);
    } else {
        batched_matvec_smem_kernel<false><<<grid, WARPS * 32>>>(ap, vp, out.data_ptr<float>(), M, K);
    }
    return out;
}
"""

_mod = load_inline(
    name="batched_matvec_honest_smem_vec_4rows",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["batched_matvec_smem"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return _mod.batched_matvec_smem(a, v)
