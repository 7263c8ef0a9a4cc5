# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor poly_shfl_cuda(torch::Tensor x, torch::Tensor coeffs);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Coefficients live in registers spread over the warp: lane k holds c[k] (loaded once per thread for
// degree <= 31; coefficient sets longer than 32 are walked in chunks of 32). Every Horner step fetches
// its coefficient with __shfl_sync and applies it to a float4 of elements. Warps stride over the
// float4 array (warp-uniform loop bounds so the shuffles always see the full warp).

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float4 horner4_shfl(float4 v, const float* __restrict__ c, int nc, float creg, bool single) {
    const int lane = threadIdx.x & 31;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    if (single) {
        for (int k = nc - 1; k >= 0; --k) {
            const float ck = __shfl_sync(FULL_MASK, creg, k);
            a0 = fmaf(a0, v.x, ck); a1 = fmaf(a1, v.y, ck);
            a2 = fmaf(a2, v.z, ck); a3 = fmaf(a3, v.w, ck);
        }
    } else {
        for (int top = nc - 1; top >= 0; top -= 32) {
            const int lo = top >= 31 ? top - 31 : 0;
            const float cr = (lo + lane <= top) ? __ldg(c + lo + lane) : 0.0f;
            for (int k = top - lo; k >= 0; --k) {
                const float ck = __shfl_sync(FULL_MASK, cr, k);
                a0 = fmaf(a0, v.x, ck); a1 = fmaf(a1, v.y, ck);
                a2 = fmaf(a2, v.z, ck); a3 = fmaf(a3, v.w, ck);
            }
        }
    }
    return make_float4(a0, a1, a2, a3);
}

__global__ void __launch_bounds__(256)
poly_shfl_kernel(const float* __restrict__ x, const float* __restrict__ c, float* __restrict__ out,
                 long long n4, long long n, int nc) {
    const int lane = threadIdx.x & 31;
    const long long warp_id = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
    const bool single = nc <= 32;
    const float creg = (single && lane < nc) ? __ldg(c + lane) : 0.0f;

    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* o4 = reinterpret_cast<float4*>(out);
    for (long long base = warp_id * 32; base < n4; base += nwarps * 32) {
        const long long i = base + lane;
        float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (i < n4) v = __ldg(x4 + i);
        const float4 r = horner4_shfl(v, c, nc, creg, single);
        if (i < n4) o4[i] = r;
    }
    // scalar remainder (n % 4, or everything when the pointers are not 16-byte aligned)
    for (long long base = 4 * n4 + warp_id * 32; base < n; base += nwarps * 32) {
        const long long j = base + lane;
        const float xv = (j < n) ? __ldg(x + j) : 0.0f;
        const float4 r = horner4_shfl(make_float4(xv, 0.0f, 0.0f, 0.0f), c, nc, creg, single);
        if (j < n) out[j] = r.x;
    }
}

torch::Tensor poly_shfl_cuda(torch::Tensor x, torch::Tensor coeffs) {
    TORCH_CHECK(x.is_cuda() && coeffs.is_cuda(), "x and coeffs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && coeffs.scalar_type() == torch::kFloat32, "float32 only");
    auto xc = x.contiguous();
    auto cc = coeffs.contiguous();
    auto out = torch::empty_like(xc);
    const long long n = xc.numel();
    const int nc = (int)cc.numel();
    if (n == 0) return out;

    const bool aligned = ((reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) |
                           reinterpret_cast<uintptr_t>(out.data_ptr<float>())) & 15) == 0;
    const long long n4 = aligned ? n / 4 : 0;
    const long long work = n4 > (n - 4 * n4) ? n4 : (n - 4 * n4);   // one lane per float4 / per tail element

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 132;
    const int threads = 256;
    long long want = (work + threads - 1) / threads;
    long long cap = (long long)sms * 8;
    const unsigned int blocks = (unsigned int)(want < 1 ? 1 : (want < cap ? want : cap));
    poly_shfl_kernel<<<blocks, threads>>>(xc.data_ptr<float>(), cc.data_ptr<float>(), out.data_ptr<float>(), n4, n, nc);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "poly_shfl_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

poly_mod = load_inline(
    name="s44_poly_warp_shfl_coeffs",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["poly_shfl_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, degree: int):
        super().__init__()
        k = torch.arange(degree + 1, dtype=torch.float32)
        self.register_buffer("coeffs", torch.cos(k) / (k + 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return poly_mod.poly_shfl_cuda(x, self.coeffs)
