# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: persistent grid. The grid is sized to exactly fill the GPU (SM count x resident
// blocks per SM from the occupancy API); every thread walks a float4 grid-stride loop, using
// streaming cache hints (__ldcs / __stcs) because each byte is touched exactly once. The n % 4
// tail is handled by the first threads after the loop; unaligned pointers use a scalar path.

#define THREADS 512

__device__ __forceinline__ float hswish(float v) {
    return v * fminf(fmaxf(v + 3.0f, 0.0f), 6.0f) * (1.0f / 6.0f);
}

__global__ void __launch_bounds__(THREADS)
hardswish_persistent_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n, int vec) {
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    if (vec) {
        const int64_t n4 = n >> 2;
        const float4* x4 = reinterpret_cast<const float4*>(x);
        float4* y4 = reinterpret_cast<float4*>(y);
        for (int64_t i = tid; i < n4; i += stride) {
            float4 v = __ldcs(&x4[i]);
            v.x = hswish(v.x);
            v.y = hswish(v.y);
            v.z = hswish(v.z);
            v.w = hswish(v.w);
            __stcs(&y4[i], v);
        }
        const int64_t t = (n4 << 2) + tid;
        if (t < n) y[t] = hswish(x[t]);   // tid < 4 here, since n - 4*n4 < 4
    } else {
        for (int64_t i = tid; i < n; i += stride) {
            y[i] = hswish(__ldcs(&x[i]));
        }
    }
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "float32 only");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int64_t n = xc.numel();
    if (n == 0) return out;
    const float* px = xc.data_ptr<float>();
    float* py = out.data_ptr<float>();
    const int vec = ((reinterpret_cast<uintptr_t>(px) % 16 == 0) && (reinterpret_cast<uintptr_t>(py) % 16 == 0)) ? 1 : 0;

    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hardswish_persistent_kernel, THREADS, 0);
    if (sms <= 0) sms = 132;
    if (per_sm <= 0) per_sm = 1;
    int64_t blocks = (int64_t)sms * per_sm;
    const int64_t work = vec ? ((n / 4) > 4 ? (n / 4) : 4) : n;
    const int64_t needed = (work + THREADS - 1) / THREADS;
    if (blocks > needed) blocks = needed;
    hardswish_persistent_kernel<<<(unsigned)blocks, THREADS>>>(px, py, n, vec);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_hardswish_persistent_streaming",
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
