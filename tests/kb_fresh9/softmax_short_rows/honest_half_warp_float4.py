# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor softmax_hw_f4_forward(torch::Tensor x, int64_t stream);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>

// Fast path for 64-wide rows (16-byte aligned): a half-warp owns a row, each of its 16 lanes loads one
// float4 (16 x 4 = 64 columns), so every warp processes 2 rows with 128-bit loads/stores. Reductions use
// __shfl_xor_sync with offsets 8,4,2,1, which never cross the 16-lane halves.
__global__ void __launch_bounds__(256)
softmax_hw_f4_kernel(const float4* __restrict__ x, float4* __restrict__ y, long long rows)
{
    const int lane = threadIdx.x & 31;
    const int sub = lane & 15;
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const long long row0 = warp * 2;
    if (row0 >= rows) return;                 // warp-uniform exit
    const long long row = row0 + (lane >> 4);
    const bool valid = row < rows;           // only the upper half of the last warp can be invalid

    float4 v = valid ? __ldg(x + row * 16 + sub) : make_float4(0.f, 0.f, 0.f, 0.f);
    float m = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
#pragma unroll
    for (int o = 8; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));

    v.x = __expf(v.x - m);
    v.y = __expf(v.y - m);
    v.z = __expf(v.z - m);
    v.w = __expf(v.w - m);
    float s = (v.x + v.y) + (v.z + v.w);
#pragma unroll
    for (int o = 8; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);

    const float inv = 1.0f / s;
    if (valid) {
        v.x *= inv; v.y *= inv; v.z *= inv; v.w *= inv;
        y[row * 16 + sub] = v;
    }
}

// Generic fallback: one warp per row, strided scalar loops.
__global__ void softmax_hw_fallback_kernel(const float* __restrict__ x, float* __restrict__ y,
                                           long long rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= rows) return;
    const float* xr = x + row * cols;
    float* yr = y + row * cols;
    float m = -FLT_MAX;
    for (int j = lane; j < cols; j += 32) m = fmaxf(m, xr[j]);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    float s = 0.f;
    for (int j = lane; j < cols; j += 32) s += __expf(xr[j] - m);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    const float inv = 1.0f / s;
    for (int j = lane; j < cols; j += 32) yr[j] = __expf(xr[j] - m) * inv;
}

torch::Tensor softmax_hw_f4_forward(torch::Tensor x, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int cols = (int)xc.size(-1);
    if (xc.numel() == 0 || cols == 0) return y;
    const long long rows = xc.numel() / cols;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    const float* xp = xc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const bool aligned = (reinterpret_cast<uintptr_t>(xp) % 16 == 0) && (reinterpret_cast<uintptr_t>(yp) % 16 == 0);
    const int threads = 256;
    if (cols == 64 && aligned) {
        const long long warps = (rows + 1) / 2;
        const long long blocks = (warps * 32 + threads - 1) / threads;
        softmax_hw_f4_kernel<<<(unsigned)blocks, threads, 0, stream>>>(
            reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp), rows);
    } else {
        const long long blocks = (rows * 32 + threads - 1) / threads;
        softmax_hw_fallback_kernel<<<(unsigned)blocks, threads, 0, stream>>>(xp, yp, rows, cols);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "softmax half-warp launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

softmax_hw_f4_ext = load_inline(
    name="softmax_short_rows_half_warp_float4_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["softmax_hw_f4_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return softmax_hw_f4_ext.softmax_hw_f4_forward(x, stream)
