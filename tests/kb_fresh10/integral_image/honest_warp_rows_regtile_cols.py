# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor integral_image_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Row pass: one warp per row, float4 loads, in-thread scan of the 4 values + warp-shuffle scan of the
// per-lane totals, carry between 128-wide chunks. Column pass: a 32x32 block owns a 32-column strip;
// each thread keeps a 32-row column segment in registers, segment totals are scanned in shared memory,
// so every element is read and written exactly once with 1024 loads in flight per block.

#define FULL 0xffffffffu
#define CT 32    // columns per column-pass block
#define SEG 32   // column segments per block (threadIdx.y)
#define RPT 32   // rows per segment held in registers

__device__ __forceinline__ float warp_incl_scan(float v, int lane) {
    #pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        float n = __shfl_up_sync(FULL, v, off);
        if (lane >= off) v += n;
    }
    return v;
}

__global__ void ii_row_warp_vec_kernel(const float* __restrict__ x, float* __restrict__ out,
                                       long long nrows, int W) {
    const int lane = threadIdx.x & 31;
    const long long r = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (r >= nrows) return;  // uniform per warp
    const float4* xp = reinterpret_cast<const float4*>(x + r * (long long)W);
    float4* op = reinterpret_cast<float4*>(out + r * (long long)W);
    const int W4 = W >> 2;
    float carry = 0.f;
    for (int base = 0; base < W4; base += 32) {
        const int i = base + lane;
        float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
        if (i < W4) a = __ldg(xp + i);
        a.y += a.x; a.z += a.y; a.w += a.z;
        float inc = warp_incl_scan(a.w, lane);
        float ex = __shfl_up_sync(FULL, inc, 1);
        if (lane == 0) ex = 0.f;
        const float add = carry + ex;
        a.x += add; a.y += add; a.z += add; a.w += add;
        if (i < W4) op[i] = a;
        carry += __shfl_sync(FULL, inc, 31);
    }
}

__global__ void ii_row_warp_scalar_kernel(const float* __restrict__ x, float* __restrict__ out,
                                          long long nrows, int W) {
    const int lane = threadIdx.x & 31;
    const long long r = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (r >= nrows) return;
    const float* xp = x + r * (long long)W;
    float* op = out + r * (long long)W;
    float carry = 0.f;
    for (int base = 0; base < W; base += 32) {
        const int j = base + lane;
        float v = (j < W) ? __ldg(xp + j) : 0.f;
        float inc = warp_incl_scan(v, lane);
        if (j < W) op[j] = carry + inc;
        carry += __shfl_sync(FULL, inc, 31);
    }
}

__global__ void __launch_bounds__(CT * SEG) ii_col_regtile_kernel(float* __restrict__ out,
                                                                  long long B, int H, int W) {
    __shared__ float seg[SEG][CT + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int j = blockIdx.x * CT + tx;
    const bool colok = j < W;
    for (long long b = blockIdx.y; b < B; b += gridDim.y) {
        float* img = out + b * (long long)H * W;
        float carry = 0.f;
        for (int r0 = 0; r0 < H; r0 += SEG * RPT) {
            const int rs = r0 + ty * RPT;
            float v[RPT];
            #pragma unroll
            for (int k = 0; k < RPT; ++k) {
                const int i = rs + k;
                v[k] = (colok && i < H) ? img[(long long)i * W + j] : 0.f;
            }
            #pragma unroll
            for (int k = 1; k < RPT; ++k) v[k] += v[k - 1];
            seg[ty][tx] = v[RPT - 1];
            __syncthreads();
            float excl = 0.f, tot = 0.f;
            #pragma unroll 8
            for (int s = 0; s < SEG; ++s) {
                const float u = seg[s][tx];
                if (s < ty) excl += u;
                tot += u;
            }
            const float add = carry + excl;
            #pragma unroll
            for (int k = 0; k < RPT; ++k) {
                const int i = rs + k;
                if (colok && i < H) img[(long long)i * W + j] = v[k] + add;
            }
            carry += tot;
            __syncthreads();  // seg is rewritten by the next row tile
        }
    }
}

torch::Tensor integral_image_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 2, "x must have at least 2 dims");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    if (xc.numel() == 0) return out;
    const int H = (int)xc.size(-2);
    const int W = (int)xc.size(-1);
    const long long B = xc.numel() / ((long long)H * W);
    const float* xp = xc.data_ptr<float>();
    float* op = out.data_ptr<float>();

    const long long nrows = B * H;
    const int rows_per_block = 8;  // 8 warps
    const unsigned gr = (unsigned)((nrows + rows_per_block - 1) / rows_per_block);
    const bool vec = (W % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(op) & 15) == 0);
    if (vec) ii_row_warp_vec_kernel<<<gr, 32 * rows_per_block>>>(xp, op, nrows, W);
    else     ii_row_warp_scalar_kernel<<<gr, 32 * rows_per_block>>>(xp, op, nrows, W);

    dim3 block(CT, SEG);
    dim3 grid((W + CT - 1) / CT, (unsigned)std::min<long long>(B, 65535));
    ii_col_regtile_kernel<<<grid, block>>>(op, B, H, W);
    return out;
}
"""

my_mod = load_inline(
    name="ii_warp_rows_regtile_cols_s44",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["integral_image_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.integral_image_cuda(x)
