# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
// Strategy: register blocking without shared memory. Each thread loads a 4x4 block as four float4
// rows, transposes it in registers and stores four float4 output rows. Warps read 512 contiguous
// bytes per row; each store instruction writes 16 bytes into 32 output rows, and the neighbouring
// warps of the block fill the rest of those lines. Falls back to a scalar kernel when sizes are not
// multiples of 4 or pointers are not 16-byte aligned.
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

__global__ void reg4x4_transpose_kernel(const float* __restrict__ x, float* __restrict__ out,
                                        int R, int C) {
    const int cg = blockIdx.x * blockDim.x + threadIdx.x;   // group of 4 input columns
    const int rg = blockIdx.y * blockDim.y + threadIdx.y;   // group of 4 input rows
    const long long c0 = (long long)cg * 4;
    const long long r0 = (long long)rg * 4;
    if (c0 >= C || r0 >= R) return;
    const float4 a0 = __ldg(reinterpret_cast<const float4*>(x + (r0 + 0) * C + c0));
    const float4 a1 = __ldg(reinterpret_cast<const float4*>(x + (r0 + 1) * C + c0));
    const float4 a2 = __ldg(reinterpret_cast<const float4*>(x + (r0 + 2) * C + c0));
    const float4 a3 = __ldg(reinterpret_cast<const float4*>(x + (r0 + 3) * C + c0));
    *reinterpret_cast<float4*>(out + (c0 + 0) * R + r0) = make_float4(a0.x, a1.x, a2.x, a3.x);
    *reinterpret_cast<float4*>(out + (c0 + 1) * R + r0) = make_float4(a0.y, a1.y, a2.y, a3.y);
    *reinterpret_cast<float4*>(out + (c0 + 2) * R + r0) = make_float4(a0.z, a1.z, a2.z, a3.z);
    *reinterpret_cast<float4*>(out + (c0 + 3) * R + r0) = make_float4(a0.w, a1.w, a2.w, a3.w);
}

__global__ void scalar_transpose_kernel(const float* __restrict__ x, float* __restrict__ out,
                                        int R, int C) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;   // output column
    const int c = blockIdx.y * blockDim.y + threadIdx.y;   // output row
    if (r < R && c < C) out[(long long)c * R + r] = x[(long long)r * C + c];
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
        dim3 block(32, 8);
        dim3 grid((unsigned)((C / 4 + 31) / 32), (unsigned)((R / 4 + 7) / 8));
        if (grid.y <= 65535u) {
            reg4x4_transpose_kernel<<<grid, block>>>(xp, op, (int)R, (int)C);
            return out;
        }
    }
    dim3 block(32, 8);
    dim3 grid((unsigned)((R + 31) / 32), (unsigned)((C + 7) / 8));
    TORCH_CHECK(grid.y <= 65535u, "too many columns for the fallback grid");
    scalar_transpose_kernel<<<grid, block>>>(xp, op, (int)R, (int)C);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_transpose2d_register_4x4_vec4",
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
