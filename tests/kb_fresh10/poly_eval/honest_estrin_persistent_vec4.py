# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor poly_estrin_cuda(torch::Tensor x, torch::Tensor coeffs);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Persistent grid (SM count x occupancy) with the coefficients held in registers. For the degree-31
// case the polynomial is evaluated with Estrin's scheme (x^2, x^4, x^8, x^16 pairing: dependency depth
// ~5 FMAs instead of 31), which keeps the memory pipe busy with few warps. Each thread handles two
// float4s per iteration from two coalesced streams, loaded with evict-first (__ldcs) and written with
// streaming stores (__stcs). Other degrees use a runtime Horner loop; unaligned data / the n % 4 tail
// go through a scalar grid-stride loop.

#define THREADS 256

template <int NC>
__device__ __forceinline__ float estrin_eval(float x, const float (&c)[NC]) {
    float b[NC];
#pragma unroll
    for (int k = 0; k < NC; ++k) b[k] = c[k];
    float p = x;
    int m = NC;
#pragma unroll
    for (int lvl = 0; lvl < 12; ++lvl) {
        if (m > 1) {
#pragma unroll
            for (int j = 0; j < (NC + 1) / 2; ++j) {
                if (2 * j + 1 < m)      b[j] = fmaf(b[2 * j + 1], p, b[2 * j]);
                else if (2 * j < m)     b[j] = b[2 * j];
            }
            m = (m + 1) / 2;
            p = p * p;
        }
    }
    return b[0];
}

__device__ __forceinline__ float horner_rt(float x, const float* __restrict__ c, int nc) {
    float a = 0.0f;
    for (int k = nc - 1; k >= 0; --k) a = fmaf(a, x, __ldg(c + k));
    return a;
}

template <int NC>
__device__ __forceinline__ float eval(float x, const float (&cr)[NC > 0 ? NC : 1], const float* __restrict__ c, int nc) {
    if constexpr (NC > 0) return estrin_eval<NC>(x, cr);
    else return horner_rt(x, c, nc);
}

template <int NC>
__device__ __forceinline__ float4 eval4(float4 v, const float (&cr)[NC > 0 ? NC : 1], const float* __restrict__ c, int nc) {
    return make_float4(eval<NC>(v.x, cr, c, nc), eval<NC>(v.y, cr, c, nc),
                       eval<NC>(v.z, cr, c, nc), eval<NC>(v.w, cr, c, nc));
}

template <int NC>
__global__ void __launch_bounds__(THREADS)
poly_estrin_kernel(const float* __restrict__ x, const float* __restrict__ c, float* __restrict__ out,
                   long long n4, long long n, int nc) {
    float cr[NC > 0 ? NC : 1];
#pragma unroll
    for (int k = 0; k < (NC > 0 ? NC : 1); ++k) cr[k] = (NC > 0) ? __ldg(c + k) : 0.0f;

    const long long T = (long long)gridDim.x * blockDim.x;
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* o4 = reinterpret_cast<float4*>(out);

    for (long long i = tid; i < n4; i += 2 * T) {
        const long long i2 = i + T;
        const bool has2 = i2 < n4;
        const float4 v0 = __ldcs(x4 + i);
        float4 v1 = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (has2) v1 = __ldcs(x4 + i2);
        const float4 r0 = eval4<NC>(v0, cr, c, nc);
        __stcs(o4 + i, r0);
        if (has2) {
            const float4 r1 = eval4<NC>(v1, cr, c, nc);
            __stcs(o4 + i2, r1);
        }
    }
    for (long long j = 4 * n4 + tid; j < n; j += T)
        out[j] = eval<NC>(x[j], cr, c, nc);
}

torch::Tensor poly_estrin_cuda(torch::Tensor x, torch::Tensor coeffs) {
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

    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 132;
    const bool fixed = (nc == 32);
    if (fixed) cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, poly_estrin_kernel<32>, THREADS, 0);
    else       cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, poly_estrin_kernel<0>, THREADS, 0);
    if (per_sm <= 0) per_sm = 1;

    // enough threads for one float4 pair each (or one scalar each if unaligned), capped at one full wave
    const long long per_thread = aligned ? 8 : 1;
    long long want = (n + (long long)THREADS * per_thread - 1) / ((long long)THREADS * per_thread);
    long long cap = (long long)sms * per_sm;
    const unsigned int blocks = (unsigned int)(want < 1 ? 1 : (want < cap ? want : cap));

    if (fixed)
        poly_estrin_kernel<32><<<blocks, THREADS>>>(xc.data_ptr<float>(), cc.data_ptr<float>(), out.data_ptr<float>(), n4, n, nc);
    else
        poly_estrin_kernel<0><<<blocks, THREADS>>>(xc.data_ptr<float>(), cc.data_ptr<float>(), out.data_ptr<float>(), n4, n, nc);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "poly_estrin_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

poly_mod = load_inline(
    name="s44_poly_estrin_persistent_vec4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["poly_estrin_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, degree: int):
        super().__init__()
        k = torch.arange(degree + 1, dtype=torch.float32)
        self.register_buffer("coeffs", torch.cos(k) / (k + 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return poly_mod.poly_estrin_cuda(x, self.coeffs)
