# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: 2-D decomposition, one thread block per row of the (rows x cols) matrix (cols = last
// dim). Threads sweep the row with float4 loads, two float4 per iteration, when the row start is
// 16-byte aligned (cols % 4 == 0 and aligned base), otherwise with scalar loads. The activation is
// evaluated in the equivalent form x * saturate(x / 6 + 0.5).

#define THREADS 256

__device__ __forceinline__ float hswish_sat(float v) {
    return v * __saturatef(fmaf(v, 1.0f / 6.0f, 0.5f));
}

__global__ void __launch_bounds__(THREADS)
hardswish_rows_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t cols, int vec) {
    const int64_t row = blockIdx.x;
    const float* xr = x + row * cols;
    float* yr = y + row * cols;
    if (vec) {
        const int64_t c4 = cols >> 2;
        const float4* x4 = reinterpret_cast<const float4*>(xr);
        float4* y4 = reinterpret_cast<float4*>(yr);
        int64_t i = threadIdx.x;
        for (; i + THREADS < c4; i += 2 * THREADS) {
            float4 a = __ldg(&x4[i]);
            float4 b = __ldg(&x4[i + THREADS]);
            a.x = hswish_sat(a.x); a.y = hswish_sat(a.y); a.z = hswish_sat(a.z); a.w = hswish_sat(a.w);
            b.x = hswish_sat(b.x); b.y = hswish_sat(b.y); b.z = hswish_sat(b.z); b.w = hswish_sat(b.w);
            y4[i] = a;
            y4[i + THREADS] = b;
        }
        if (i < c4) {
            float4 a = __ldg(&x4[i]);
            a.x = hswish_sat(a.x); a.y = hswish_sat(a.y); a.z = hswish_sat(a.z); a.w = hswish_sat(a.w);
            y4[i] = a;
        }
    } else {
        for (int64_t i = threadIdx.x; i < cols; i += THREADS) {
            yr[i] = hswish_sat(__ldg(&xr[i]));
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
    int64_t cols = xc.dim() >= 1 ? xc.size(-1) : 1;
    int64_t rows = n / cols;
    const float* px = xc.data_ptr<float>();
    float* py = out.data_ptr<float>();
    const int vec = ((cols % 4 == 0) && (reinterpret_cast<uintptr_t>(px) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(py) % 16 == 0)) ? 1 : 0;
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");
    hardswish_rows_kernel<<<(unsigned)rows, THREADS>>>(px, py, cols, vec);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_hardswish_row_per_block",
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
