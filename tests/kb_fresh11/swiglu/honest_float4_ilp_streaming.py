# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor swiglu_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: 2D grid (rows on grid.y, column chunks on grid.x). Each thread handles UNROLL float4
// vectors of its row spaced one block-width apart: all 2*UNROLL 128-bit loads are issued before any
// math (memory-level parallelism), the data is read/written with streaming cache hints
// (__ldcs/__stcs, touched once) and the sigmoid uses the fast __expf/__fdividef intrinsics.
// Scalar fallback when hidden % 4 != 0 or the pointers are not 16-byte aligned.

#define UNROLL 4
#define THREADS 256

__device__ __forceinline__ float silu_mul(float a, float g) {
    return __fdividef(a, 1.0f + __expf(-a)) * g;
}

__global__ void __launch_bounds__(THREADS)
swiglu_vec4_ilp_kernel(const float4* __restrict__ x, float4* __restrict__ y,
                       long long rows, long long hid4) {
    for (long long r = blockIdx.y; r < rows; r += gridDim.y) {
        const float4* xa = x + r * 2 * hid4;
        const float4* xb = xa + hid4;
        float4* yr = y + r * hid4;
        long long base = (long long)blockIdx.x * (THREADS * UNROLL) + threadIdx.x;
        float4 a[UNROLL], g[UNROLL];
        #pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            long long j = base + u * THREADS;
            if (j < hid4) {
                a[u] = __ldcs(xa + j);
                g[u] = __ldcs(xb + j);
            }
        }
        #pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            long long j = base + u * THREADS;
            if (j < hid4) {
                float4 o;
                o.x = silu_mul(a[u].x, g[u].x);
                o.y = silu_mul(a[u].y, g[u].y);
                o.z = silu_mul(a[u].z, g[u].z);
                o.w = silu_mul(a[u].w, g[u].w);
                __stcs(yr + j, o);
            }
        }
    }
}

__global__ void swiglu_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     long long rows, long long hid) {
    for (long long r = blockIdx.y; r < rows; r += gridDim.y) {
        const float* xa = x + r * 2 * hid;
        float* yr = y + r * hid;
        for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < hid;
             j += (long long)gridDim.x * blockDim.x) {
            yr[j] = silu_mul(xa[j], xa[hid + j]);
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
    unsigned int gy = (unsigned int)(rows < 65535 ? rows : 65535);
    bool vec = (hid % 4 == 0) &&
               ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
               ((reinterpret_cast<uintptr_t>(yp) & 15) == 0);
    if (vec) {
        long long hid4 = hid / 4;
        long long gx = (hid4 + THREADS * UNROLL - 1) / (THREADS * UNROLL);
        dim3 grid((unsigned int)gx, gy);
        swiglu_vec4_ilp_kernel<<<grid, THREADS>>>(
            reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp), rows, hid4);
    } else {
        long long gx = (hid + THREADS - 1) / THREADS;
        if (gx > 65535) gx = 65535;
        dim3 grid((unsigned int)gx, gy);
        swiglu_scalar_kernel<<<grid, THREADS>>>(xp, yp, rows, hid);
    }
    return y;
}
"""

my_mod = load_inline(
    name="swiglu_float4_ilp_streaming_s45",
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
