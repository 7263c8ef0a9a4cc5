# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor swiglu_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: persistent grid sized from the occupancy API (resident blocks per SM x SM count).
// Each warp owns whole token rows (global warp id, warp-stride over rows); inside a row the 32
// lanes sweep the hidden dimension with float4 loads, two vectors per lane per step so that four
// 128-bit loads are outstanding before the math. Scalar per-lane path when hidden % 4 != 0 or
// pointers are misaligned.

#define THREADS 256

__device__ __forceinline__ float silu_mul(float a, float g) {
    return __fdividef(a, 1.0f + __expf(-a)) * g;
}

template <bool VEC>
__global__ void __launch_bounds__(THREADS)
swiglu_persistent_warp_kernel(const float* __restrict__ x, float* __restrict__ y,
                              long long rows, long long hid) {
    const int lane = threadIdx.x & 31;
    const long long warp = ((long long)blockIdx.x * THREADS + threadIdx.x) >> 5;
    const long long nwarps = ((long long)gridDim.x * THREADS) >> 5;
    for (long long r = warp; r < rows; r += nwarps) {
        const float* xa = x + r * 2 * hid;
        const float* xb = xa + hid;
        float* yr = y + r * hid;
        if (VEC) {
            const float4* a4 = reinterpret_cast<const float4*>(xa);
            const float4* b4 = reinterpret_cast<const float4*>(xb);
            float4* y4 = reinterpret_cast<float4*>(yr);
            const long long hid4 = hid >> 2;
            long long j = lane;
            for (; j + 32 < hid4; j += 64) {
                float4 a0 = __ldg(a4 + j), a1 = __ldg(a4 + j + 32);
                float4 g0 = __ldg(b4 + j), g1 = __ldg(b4 + j + 32);
                float4 o0, o1;
                o0.x = silu_mul(a0.x, g0.x); o0.y = silu_mul(a0.y, g0.y);
                o0.z = silu_mul(a0.z, g0.z); o0.w = silu_mul(a0.w, g0.w);
                o1.x = silu_mul(a1.x, g1.x); o1.y = silu_mul(a1.y, g1.y);
                o1.z = silu_mul(a1.z, g1.z); o1.w = silu_mul(a1.w, g1.w);
                y4[j] = o0;
                y4[j + 32] = o1;
            }
            for (; j < hid4; j += 32) {
                float4 a0 = __ldg(a4 + j), g0 = __ldg(b4 + j);
                float4 o0;
                o0.x = silu_mul(a0.x, g0.x); o0.y = silu_mul(a0.y, g0.y);
                o0.z = silu_mul(a0.z, g0.z); o0.w = silu_mul(a0.w, g0.w);
                y4[j] = o0;
            }
        } else {
            for (long long j = lane; j < hid; j += 32) yr[j] = silu_mul(__ldg(xa + j), __ldg(xb + j));
        }
    }
}

torch::Tensor swiglu_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1 && x.size(-1) % 2 == 0, "last dim must be even");
    auto xc = x.contiguous();
    long long D = xc.size(-1);
    long long hid = D / 2;
    auto sizes = xc.sizes().vec();
    sizes.back() = hid;
    auto y = torch::empty(sizes, xc.options());
    long long total = y.numel();
    if (total == 0) return y;
    long long rows = total / hid;
    const float* xp = xc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    bool vec = (hid % 4 == 0) &&
               ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
               ((reinterpret_cast<uintptr_t>(yp) & 15) == 0);

    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (vec)
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, swiglu_persistent_warp_kernel<true>, THREADS, 0);
    else
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, swiglu_persistent_warp_kernel<false>, THREADS, 0);
    if (sms <= 0) sms = 132;
    if (per_sm <= 0) per_sm = 1;
    long long blocks = (long long)sms * per_sm;
    long long need = (rows + (THREADS / 32) - 1) / (THREADS / 32);   // one warp per row at most
    if (blocks > need) blocks = need;
    if (vec)
        swiglu_persistent_warp_kernel<true><<<(unsigned int)blocks, THREADS>>>(xp, yp, rows, hid);
    else
        swiglu_persistent_warp_kernel<false><<<(unsigned int)blocks, THREADS>>>(xp, yp, rows, hid);
    return y;
}
"""

my_mod = load_inline(
    name="swiglu_persistent_warp_rows_s45",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["swiglu_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.swiglu_cuda(x)
