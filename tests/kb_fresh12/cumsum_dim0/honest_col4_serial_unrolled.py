# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cumsum0_col4_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Strategy: one thread per group of 4 adjacent columns (float4 loads/stores), walking the rows
// serially; rows are processed in batches of 8 whose loads are all issued before the dependent adds.
// Scalar per-column fallback when the column count is not a multiple of 4 or pointers are misaligned.

#define UNROLL 8

__global__ void cumsum0_col4_kernel(const float4* __restrict__ x, float4* __restrict__ y,
                                    int R, int C4) {
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= C4) return;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    int r = 0;
    for (; r + UNROLL <= R; r += UNROLL) {
        float4 v[UNROLL];
#pragma unroll
        for (int k = 0; k < UNROLL; ++k) v[k] = __ldg(&x[(size_t)(r + k) * C4 + q]);
#pragma unroll
        for (int k = 0; k < UNROLL; ++k) {
            acc.x += v[k].x; acc.y += v[k].y; acc.z += v[k].z; acc.w += v[k].w;
            y[(size_t)(r + k) * C4 + q] = acc;
        }
    }
    for (; r < R; ++r) {
        float4 v = __ldg(&x[(size_t)r * C4 + q]);
        acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
        y[(size_t)r * C4 + q] = acc;
    }
}

__global__ void cumsum0_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                      int R, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float acc = 0.f;
    for (int r = 0; r < R; ++r) {
        size_t i = (size_t)r * C + c;
        acc += __ldg(&x[i]);
        y[i] = acc;
    }
}

torch::Tensor cumsum0_col4_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int R = (int)xc.size(0);
    int C = (int)xc.size(1);
    if (R == 0 || C == 0) return out;
    const float* xp = xc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    bool vec_ok = (C % 4 == 0) &&
                  ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
                  ((reinterpret_cast<uintptr_t>(yp) & 15) == 0);
    if (vec_ok) {
        int C4 = C / 4;
        const int threads = 64;
        int blocks = (C4 + threads - 1) / threads;
        cumsum0_col4_kernel<<<blocks, threads>>>(reinterpret_cast<const float4*>(xp),
                                                 reinterpret_cast<float4*>(yp), R, C4);
    } else {
        const int threads = 128;
        int blocks = (C + threads - 1) / threads;
        cumsum0_scalar_kernel<<<blocks, threads>>>(xp, yp, R, C);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_cumsum0_col4_serial_unrolled",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cumsum0_col4_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.cumsum0_col4_cuda(x)
