# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor sum0_persistent_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Strategy: persistent grid sized from the occupancy calculator (SMs x resident blocks). Blocks are
// split into column tiles of 256 columns (64 float4 lanes x 4 row lanes); the blocks of one column
// tile grid-stride over the rows, 4 independent float4 loads in flight per thread per iteration.
// The 4 row-lane partials are combined in shared memory and added to the output with atomics.
// Scalar fallback when C % 4 != 0 or the input pointer is not 16-byte aligned.

#define TXQ 64
#define TYR 4

__device__ __forceinline__ void add4(float4& a, const float4& b) {
    a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}

__global__ void __launch_bounds__(TXQ * TYR)
sum0_persistent_kernel(const float4* __restrict__ x, float* __restrict__ out,
                       int R, int C4, int n_col_tiles, int n_groups) {
    __shared__ float4 s[TYR][TXQ];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int ct = blockIdx.x % n_col_tiles;
    const int g = blockIdx.x / n_col_tiles;
    const int q = ct * TXQ + tx;
    const bool qok = q < C4;
    const long long stride = (long long)n_groups * TYR;

    float4 a0 = make_float4(0.f, 0.f, 0.f, 0.f);
    float4 a1 = a0, a2 = a0, a3 = a0;
    if (qok) {
        long long r = (long long)g * TYR + ty;
        for (; r + 3 * stride < R; r += 4 * stride) {
            float4 v0 = __ldg(&x[(size_t)(r)*C4 + q]);
            float4 v1 = __ldg(&x[(size_t)(r + stride) * C4 + q]);
            float4 v2 = __ldg(&x[(size_t)(r + 2 * stride) * C4 + q]);
            float4 v3 = __ldg(&x[(size_t)(r + 3 * stride) * C4 + q]);
            add4(a0, v0); add4(a1, v1); add4(a2, v2); add4(a3, v3);
        }
        for (; r < R; r += stride) add4(a0, __ldg(&x[(size_t)r * C4 + q]));
    }
    add4(a0, a1); add4(a2, a3); add4(a0, a2);
    s[ty][tx] = a0;
    __syncthreads();
    if (ty == 0 && qok) {
        float4 t = s[0][tx];
#pragma unroll
        for (int j = 1; j < TYR; ++j) add4(t, s[j][tx]);
        float* o = out + (size_t)q * 4;
        atomicAdd(o + 0, t.x);
        atomicAdd(o + 1, t.y);
        atomicAdd(o + 2, t.z);
        atomicAdd(o + 3, t.w);
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

torch::Tensor sum0_persistent_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    auto xc = x.contiguous();
    int R = (int)xc.size(0);
    int C = (int)xc.size(1);
    auto out = torch::zeros({(long)C}, xc.options());
    if (R == 0 || C == 0) return out;
    const float* xp = xc.data_ptr<float>();
    bool vec_ok = (C % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);
    if (!vec_ok) {
        int nslabs = R < 64 ? R : 64;
        int rows_per = (R + nslabs - 1) / nslabs;
        dim3 grid((C + 255) / 256, nslabs);
        sum0_scalar_kernel<<<grid, 256>>>(xp, out.data_ptr<float>(), R, C, rows_per);
        return out;
    }
    int C4 = C / 4;
    int dev = 0;
    cudaGetDevice(&dev);
    int n_sm = 0;
    cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, dev);
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sum0_persistent_kernel, TXQ * TYR, 0);
    if (n_sm <= 0) n_sm = 1;
    if (per_sm <= 0) per_sm = 1;
    int n_col_tiles = (C4 + TXQ - 1) / TXQ;
    int n_groups = (n_sm * per_sm) / n_col_tiles;
    if (n_groups < 1) n_groups = 1;
    int max_groups = (R + TYR - 1) / TYR;
    if (n_groups > max_groups) n_groups = max_groups;
    long long n_blocks = (long long)n_groups * n_col_tiles;
    TORCH_CHECK(n_blocks < (1LL << 31), "too many blocks");
    dim3 block(TXQ, TYR);
    sum0_persistent_kernel<<<(unsigned)n_blocks, block>>>(reinterpret_cast<const float4*>(xp),
                                                          out.data_ptr<float>(), R, C4,
                                                          n_col_tiles, n_groups);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_sum0_persistent_vec4_atomic",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["sum0_persistent_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.sum0_persistent_cuda(x)
