# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cumsum0_tile_carry_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: a block owns a strip of 32 columns and walks down it in tiles of TY*RPT rows.
// Each thread loads RPT consecutive rows of its column into registers and scans them locally;
// the per-thread segment totals are scanned across the TY segments through shared memory
// (together with the carry from previous tiles), then every thread adds its offset and stores.

#define TX 32
#define TY 8
#define RPT 16

__global__ void __launch_bounds__(TX * TY)
cumsum0_tile_carry_kernel(const float* __restrict__ x, float* __restrict__ y, int R, int C) {
    __shared__ float s_tot[TY][TX];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int c = blockIdx.x * TX + tx;
    const bool cok = c < C;
    float carry = 0.f;  // only meaningful for ty == 0

    for (int base = 0; base < R; base += TY * RPT) {
        const int r0 = base + ty * RPT;
        float v[RPT];
#pragma unroll
        for (int k = 0; k < RPT; ++k) {
            int r = r0 + k;
            v[k] = (cok && r < R) ? __ldg(&x[(size_t)r * C + c]) : 0.f;
        }
#pragma unroll
        for (int k = 1; k < RPT; ++k) v[k] += v[k - 1];
        s_tot[ty][tx] = v[RPT - 1];
        __syncthreads();
        if (ty == 0) {
            float p = carry;
#pragma unroll
            for (int j = 0; j < TY; ++j) {
                float t = s_tot[j][tx];
                s_tot[j][tx] = p;
                p += t;
            }
            carry = p;
        }
        __syncthreads();
        const float off = s_tot[ty][tx];
#pragma unroll
        for (int k = 0; k < RPT; ++k) {
            int r = r0 + k;
            if (cok && r < R) y[(size_t)r * C + c] = v[k] + off;
        }
        __syncthreads();  // s_tot is overwritten in the next tile
    }
}

torch::Tensor cumsum0_tile_carry_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int R = (int)xc.size(0);
    int C = (int)xc.size(1);
    if (R == 0 || C == 0) return out;
    dim3 block(TX, TY);
    dim3 grid((C + TX - 1) / TX);
    cumsum0_tile_carry_kernel<<<grid, block>>>(xc.data_ptr<float>(), out.data_ptr<float>(), R, C);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_cumsum0_smem_tile_carry",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cumsum0_tile_carry_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.cumsum0_tile_carry_cuda(x)
