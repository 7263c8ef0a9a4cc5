# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor softmax_online_f2_forward(torch::Tensor x, int64_t stream);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>

// Fast path for 64-wide rows: one warp per row, each lane loads one float2 (columns 2*lane, 2*lane+1),
// so a row is a single fully coalesced 256-byte access. Max and sum are combined in ONE butterfly
// pass as (max, sum) pairs (online softmax): s = s_a * exp(m_a - m) + s_b * exp(m_b - m).
__global__ void softmax_online_f2_kernel(const float2* __restrict__ x, float2* __restrict__ y, long long rows)
{
    const int lane = threadIdx.x & 31;
    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= rows) return;   // warp-uniform

    const float2 v = __ldg(x + row * 32 + lane);
    float m = fmaxf(v.x, v.y);
    float s = __expf(v.x - m) + __expf(v.y - m);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float mo = __shfl_xor_sync(0xffffffffu, m, o);
        const float so = __shfl_xor_sync(0xffffffffu, s, o);
        const float mn = fmaxf(m, mo);
        s = s * __expf(m - mn) + so * __expf(mo - mn);
        m = mn;
    }
    const float inv = 1.0f / s;
    float2 r;
    r.x = __expf(v.x - m) * inv;
    r.y = __expf(v.y - m) * inv;
    y[row * 32 + lane] = r;
}

// Fallback (any width / alignment): one thread per row, online max/sum in one read pass, then a write pass.
__global__ void softmax_online_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                             long long rows, int cols)
{
    const long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* xr = x + row * cols;
    float* yr = y + row * cols;
    float m = -FLT_MAX, s = 0.f;
    for (int j = 0; j < cols; ++j) {
        const float v = xr[j];
        if (v > m) { s = s * __expf(m - v) + 1.0f; m = v; }
        else       { s += __expf(v - m); }
    }
    const float inv = 1.0f / s;
    for (int j = 0; j < cols; ++j) yr[j] = __expf(xr[j] - m) * inv;
}

torch::Tensor softmax_online_f2_forward(torch::Tensor x, int64_t stream_ptr) {
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
    const bool aligned = (reinterpret_cast<uintptr_t>(xp) % 8 == 0) && (reinterpret_cast<uintptr_t>(yp) % 8 == 0);
    const int threads = 256;
    if (cols == 64 && aligned) {
        const long long blocks = (rows * 32 + threads - 1) / threads;
        softmax_online_f2_kernel<<<(unsigned)blocks, threads, 0, stream>>>(
            reinterpret_cast<const float2*>(xp), reinterpret_cast<float2*>(yp), rows);
    } else {
        const long long blocks = (rows + threads - 1) / threads;
        softmax_online_scalar_kernel<<<(unsigned)blocks, threads, 0, stream>>>(xp, yp, rows, cols);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "softmax online launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

softmax_online_f2_ext = load_inline(
    name="softmax_short_rows_online_warp_float2_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["softmax_online_f2_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return softmax_online_f2_ext.softmax_online_f2_forward(x, stream)
