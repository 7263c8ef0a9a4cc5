# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor var_shifted(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define SH_THREADS 256
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL_MASK, v, off);
    return v;
}

// Reduces two values at once across the block; every thread gets the totals.
__device__ __forceinline__ void block_sum2(float& a, float& b) {
    __shared__ float sa[32], sb[32];
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const int nw = (blockDim.x + 31) >> 5;
    a = warp_sum(a);
    b = warp_sum(b);
    if (lane == 0) { sa[wid] = a; sb[wid] = b; }
    __syncthreads();
    a = (lane < nw) ? sa[lane] : 0.0f;
    b = (lane < nw) ? sb[lane] : 0.0f;
    a = warp_sum(a);
    b = warp_sum(b);
}

// Single pass over the row using the shifted-data formula: with K = x[row, 0],
// accumulate S1 = sum(x - K) and S2 = sum((x - K)^2). Because K is a sample of
// the row, S2 - S1^2 / n does not suffer the cancellation of the naive
// E[x^2] - E[x]^2 formula. Row loads are 16-byte float4 when the row is aligned.
template <bool VEC>
__global__ void __launch_bounds__(SH_THREADS)
var_shifted_kernel(const float* __restrict__ x, float* __restrict__ out, long long cols) {
    const float* xr = x + (long long)blockIdx.x * cols;
    const float K = __ldg(xr);
    float s1 = 0.0f, s2 = 0.0f;
    if (VEC) {
        const float4* x4 = reinterpret_cast<const float4*>(xr);
        long long n4 = cols >> 2;
        for (long long i = threadIdx.x; i < n4; i += SH_THREADS) {
            float4 q = __ldg(x4 + i);
            float a = q.x - K, b = q.y - K, c = q.z - K, d = q.w - K;
            s1 += (a + b) + (c + d);
            s2 += (a * a + b * b) + (c * c + d * d);
        }
    } else {
        for (long long i = threadIdx.x; i < cols; i += SH_THREADS) {
            float a = __ldg(xr + i) - K;
            s1 += a;
            s2 += a * a;
        }
    }
    block_sum2(s1, s2);
    if (threadIdx.x == 0) {
        double n = (double)cols;
        double m2 = (double)s2 - (double)s1 * (double)s1 / n;
        if (m2 < 0.0) m2 = 0.0;
        out[blockIdx.x] = (float)(m2 / (n - 1.0));
    }
}

torch::Tensor var_shifted(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto sizes = x.sizes().vec();
    long long cols = sizes.back();
    sizes.back() = 1;
    auto out = torch::empty(sizes, x.options());
    if (out.numel() == 0) return out;
    long long rows = out.numel();
    if (cols == 0) { out.fill_(NAN); return out; }
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");
    const float* xp = x.data_ptr<float>();
    bool vec_ok = (cols % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);
    if (vec_ok) var_shifted_kernel<true><<<(unsigned int)rows, SH_THREADS>>>(xp, out.data_ptr<float>(), cols);
    else        var_shifted_kernel<false><<<(unsigned int)rows, SH_THREADS>>>(xp, out.data_ptr<float>(), cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "var_shifted_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_mod = load_inline(
    name="var_lastdim_float4_shifted_single_pass",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["var_shifted"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.var_shifted(x.contiguous())
