# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>

// One warp per plane with 128-bit loads: when H*W is a multiple of 4 and the
// input is 16-byte aligned every plane starts on a float4 boundary, so lanes
// read float4s through __ldg (4 independent running maxima per lane), and the
// warp finishes with __shfl_xor_sync. Otherwise a scalar coalesced loop is used.
#define WARPS_PER_BLOCK 8

template <bool VEC>
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
amax_hw_warp_f4_kernel(const float* __restrict__ x, float* __restrict__ out,
                       long long planes, int hw) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const long long p = (long long)blockIdx.x * WARPS_PER_BLOCK + warp;
    if (p >= planes) return;   // warp-uniform exit
    const float* xp = x + p * hw;

    float m0 = -INFINITY, m1 = -INFINITY, m2 = -INFINITY, m3 = -INFINITY;
    if (VEC) {
        const float4* xp4 = reinterpret_cast<const float4*>(xp);
        const int n4 = hw >> 2;
#pragma unroll 4
        for (int k = lane; k < n4; k += 32) {
            const float4 v = __ldg(xp4 + k);
            m0 = fmaxf(m0, v.x);
            m1 = fmaxf(m1, v.y);
            m2 = fmaxf(m2, v.z);
            m3 = fmaxf(m3, v.w);
        }
    } else {
        for (int k = lane; k < hw; k += 32) {
            m0 = fmaxf(m0, __ldg(xp + k));
        }
    }
    float m = fmaxf(fmaxf(m0, m1), fmaxf(m2, m3));
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    }
    if (lane == 0) out[p] = m;
}

torch::Tensor amax_hw_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 4, "x must be 4-D (B, C, H, W)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    const long long B = x.size(0), C = x.size(1);
    const long long hw = x.size(2) * x.size(3);
    TORCH_CHECK(hw > 0, "amax over an empty plane is undefined");
    TORCH_CHECK(hw <= 2147483647LL - 32, "plane too large");
    auto out = torch::empty({B, C}, x.options());
    const long long planes = B * C;
    if (planes == 0) return out;

    const float* xp = x.data_ptr<float>();
    const bool vec_ok = (hw % 4 == 0) && (reinterpret_cast<std::uintptr_t>(xp) % 16 == 0);
    const long long blocks = (planes + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    if (vec_ok) {
        amax_hw_warp_f4_kernel<true><<<(unsigned int)blocks, WARPS_PER_BLOCK * 32>>>(
            xp, out.data_ptr<float>(), planes, (int)hw);
    } else {
        amax_hw_warp_f4_kernel<false><<<(unsigned int)blocks, WARPS_PER_BLOCK * 32>>>(
            xp, out.data_ptr<float>(), planes, (int)hw);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "amax_hw_warp_f4_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_src = "torch::Tensor amax_hw_forward(torch::Tensor x);"

amax_ext = load_inline(
    name="amax_hw_warp_float4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["amax_hw_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return amax_ext.amax_hw_forward(x.contiguous())
