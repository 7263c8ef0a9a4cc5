# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor global_sum_row_blocks(torch::Tensor x);"

cuda_src = r'''
#include <cuda_runtime.h>
#include <stdint.h>

#define BLOCK 256

__device__ __forceinline__ float warp_sum_f(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__device__ __forceinline__ double warp_sum_d(double v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

// Stage 1: one block per row. Coalesced float4 loads when the row start is 16-byte aligned
// and cols % 4 == 0 (rows then stay aligned), scalar otherwise. Writes one float per row.
__global__ void row_sum_kernel(const float* __restrict__ x, float* __restrict__ row_sums,
                               long long cols, bool vec) {
    __shared__ float warp_sums[BLOCK / 32];
    const float* row = x + (long long)blockIdx.x * cols;
    float s = 0.0f;
    if (vec) {
        const float4* r4 = reinterpret_cast<const float4*>(row);
        const long long c4 = cols / 4;
        for (long long c = threadIdx.x; c < c4; c += BLOCK) {
            float4 v = __ldg(r4 + c);
            s += (v.x + v.y) + (v.z + v.w);
        }
    } else {
        for (long long c = threadIdx.x; c < cols; c += BLOCK) s += __ldg(row + c);
    }
    s = warp_sum_f(s);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
        float v = (lane < BLOCK / 32) ? warp_sums[lane] : 0.0f;
        v = warp_sum_f(v);
        if (lane == 0) row_sums[blockIdx.x] = v;
    }
}

// Stage 2: one block sums the row sums in double precision, then rounds once to float.
__global__ void final_sum_double_kernel(const float* __restrict__ row_sums, float* __restrict__ out, long long rows) {
    __shared__ double warp_sums[BLOCK / 32];
    double s = 0.0;
    for (long long r = threadIdx.x; r < rows; r += BLOCK) s += (double)row_sums[r];
    s = warp_sum_d(s);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
        double v = (lane < BLOCK / 32) ? warp_sums[lane] : 0.0;
        v = warp_sum_d(v);
        if (lane == 0) out[0] = (float)v;
    }
}

torch::Tensor global_sum_row_blocks(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "float32 only");
    x = x.contiguous();
    auto out = torch::zeros({}, x.options());
    long long n = x.numel();
    if (n == 0) return out;
    long long cols = x.dim() == 0 ? 1 : x.size(x.dim() - 1);
    long long rows = n / cols;
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");
    const float* ptr = x.data_ptr<float>();
    bool vec = (cols % 4 == 0) && ((reinterpret_cast<uintptr_t>(ptr) & 15) == 0);
    auto row_sums = torch::empty({rows}, x.options());
    row_sum_kernel<<<(unsigned int)rows, BLOCK>>>(ptr, row_sums.data_ptr<float>(), cols, vec);
    final_sum_double_kernel<<<1, BLOCK>>>(row_sums.data_ptr<float>(), out.data_ptr<float>(), rows);
    return out;
}
'''

global_sum_row_blocks_mod = load_inline(
    name="global_sum_row_block_double_finish",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["global_sum_row_blocks"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return global_sum_row_blocks_mod.global_sum_row_blocks(x)
