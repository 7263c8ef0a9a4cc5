# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: register blocking - each thread owns 4 consecutive matrices = 36 floats = 9 aligned
// float4 loads (read-only path), computes 4 determinants and writes them with one float4 store.
// Threads whose group runs past n (or an unaligned input) take a scalar path.

__device__ __forceinline__ float comp(const float4& q, int c) {
    return c == 0 ? q.x : (c == 1 ? q.y : (c == 2 ? q.z : q.w));
}

__device__ __forceinline__ float det3(float a0, float a1, float a2, float a3, float a4,
                                      float a5, float a6, float a7, float a8) {
    return a0 * (a4 * a8 - a5 * a7) - a1 * (a3 * a8 - a5 * a6) + a2 * (a3 * a7 - a4 * a6);
}

__global__ void det3_float4_kernel(const float* __restrict__ x, float* __restrict__ y,
                                   long long n, bool aligned) {
    long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;  // group of 4 matrices
    long long m0 = g * 4;
    if (m0 >= n) return;
    if (aligned && m0 + 4 <= n) {
        const float4* p = reinterpret_cast<const float4*>(x) + g * 9;
        float4 r[9];
#pragma unroll
        for (int k = 0; k < 9; ++k) r[k] = __ldg(p + k);
#define E(e) comp(r[(e) >> 2], (e) & 3)
        float d[4];
#pragma unroll
        for (int m = 0; m < 4; ++m) {
            const int b = m * 9;
            d[m] = det3(E(b + 0), E(b + 1), E(b + 2), E(b + 3), E(b + 4),
                        E(b + 5), E(b + 6), E(b + 7), E(b + 8));
        }
#undef E
        *reinterpret_cast<float4*>(y + m0) = make_float4(d[0], d[1], d[2], d[3]);
    } else {
        long long end = m0 + 4 < n ? m0 + 4 : n;
        for (long long m = m0; m < end; ++m) {
            const float* a = x + m * 9;
            y[m] = det3(__ldg(a + 0), __ldg(a + 1), __ldg(a + 2), __ldg(a + 3), __ldg(a + 4),
                        __ldg(a + 5), __ldg(a + 6), __ldg(a + 7), __ldg(a + 8));
        }
    }
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() >= 2 && x.size(-1) == 3 && x.size(-2) == 3, "x must have shape (..., 3, 3)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto sizes = xc.sizes().vec();
    sizes.pop_back();
    sizes.pop_back();
    auto out = torch::empty(sizes, xc.options());
    long long n = xc.numel() / 9;
    if (n == 0) return out;
    const float* xp = xc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    bool aligned = ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) && ((reinterpret_cast<uintptr_t>(yp) & 15) == 0);
    const int threads = 256;
    long long groups = (n + 3) / 4;
    long long blocks = (groups + threads - 1) / threads;
    det3_float4_kernel<<<(unsigned int)blocks, threads>>>(xp, yp, n, aligned);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_mat3_det_float4_four_per_thread",
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
