# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor softmax_octet_forward(torch::Tensor x, int64_t stream);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdint>

#define THREADS 256
#define LOG2E 1.4426950408889634f

// Persistent, register-blocked kernel for 64-wide rows (16-byte aligned).
// 8 lanes own a row; lane `sub` holds columns 4*sub..4*sub+3 and 32+4*sub..32+4*sub+3 as two float4,
// so each of the two loads of a row is one contiguous 128-byte segment. A warp handles 4 rows per
// iteration and walks the rows with a grid-stride loop over a grid sized to fill the GPU once.
// Loads/stores use streaming cache hints (data is touched exactly once); exp is computed as
// exp2(x*log2e - max*log2e) with one FMA; reductions are 3-step xor shuffles inside each 8-lane group.
__global__ void __launch_bounds__(THREADS)
softmax_octet_kernel(const float4* __restrict__ x, float4* __restrict__ y, long long rows)
{
    const int lane = threadIdx.x & 31;
    const int sub = lane & 7;
    const long long groups = (rows + 3) >> 2;
    const long long warp = ((long long)blockIdx.x * THREADS + threadIdx.x) >> 5;
    const long long nwarps = ((long long)gridDim.x * THREADS) >> 5;

    for (long long g = warp; g < groups; g += nwarps) {      // warp-uniform loop
        const long long row = g * 4 + (lane >> 3);
        const bool valid = row < rows;
        const float4* xr = x + row * 16;
        float4 a = make_float4(0.f, 0.f, 0.f, 0.f), b = a;
        if (valid) {
            a = __ldcs(xr + sub);
            b = __ldcs(xr + 8 + sub);
        }
        float m = fmaxf(fmaxf(fmaxf(a.x, a.y), fmaxf(a.z, a.w)), fmaxf(fmaxf(b.x, b.y), fmaxf(b.z, b.w)));
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 4));
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 2));
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 1));

        const float ml = m * LOG2E;
        a.x = exp2f(fmaf(a.x, LOG2E, -ml)); a.y = exp2f(fmaf(a.y, LOG2E, -ml));
        a.z = exp2f(fmaf(a.z, LOG2E, -ml)); a.w = exp2f(fmaf(a.w, LOG2E, -ml));
        b.x = exp2f(fmaf(b.x, LOG2E, -ml)); b.y = exp2f(fmaf(b.y, LOG2E, -ml));
        b.z = exp2f(fmaf(b.z, LOG2E, -ml)); b.w = exp2f(fmaf(b.w, LOG2E, -ml));
        float s = ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w));
        s += __shfl_xor_sync(0xffffffffu, s, 4);
        s += __shfl_xor_sync(0xffffffffu, s, 2);
        s += __shfl_xor_sync(0xffffffffu, s, 1);
        const float inv = 1.0f / s;

        if (valid) {
            a.x *= inv; a.y *= inv; a.z *= inv; a.w *= inv;
            b.x *= inv; b.y *= inv; b.z *= inv; b.w *= inv;
            float4* yr = y + row * 16;
            __stcs(yr + sub, a);
            __stcs(yr + 8 + sub, b);
        }
    }
}

// Fallback for other widths / misaligned tensors: persistent warp-per-row, scalar strided loops.
__global__ void __launch_bounds__(THREADS)
softmax_octet_fallback_kernel(const float* __restrict__ x, float* __restrict__ y, long long rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const long long warp = ((long long)blockIdx.x * THREADS + threadIdx.x) >> 5;
    const long long nwarps = ((long long)gridDim.x * THREADS) >> 5;
    for (long long row = warp; row < rows; row += nwarps) {
        const float* xr = x + row * cols;
        float* yr = y + row * cols;
        float m = -FLT_MAX;
        for (int j = lane; j < cols; j += 32) m = fmaxf(m, xr[j]);
        for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
        float s = 0.f;
        for (int j = lane; j < cols; j += 32) s += expf(xr[j] - m);
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        const float inv = 1.0f / s;
        for (int j = lane; j < cols; j += 32) yr[j] = expf(xr[j] - m) * inv;
    }
}

torch::Tensor softmax_octet_forward(torch::Tensor x, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int cols = (int)xc.size(-1);
    if (xc.numel() == 0 || cols == 0) return y;
    const long long rows = xc.numel() / cols;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    int dev = 0, sms = 132;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const long long cap = (long long)sms * (2048 / THREADS);   // one full wave of resident blocks

    const float* xp = xc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const bool aligned = (reinterpret_cast<uintptr_t>(xp) % 16 == 0) && (reinterpret_cast<uintptr_t>(yp) % 16 == 0);
    if (cols == 64 && aligned) {
        const long long groups = (rows + 3) / 4;
        long long want = (groups * 32 + THREADS - 1) / THREADS;
        const int blocks = (int)(want < cap ? want : cap);
        softmax_octet_kernel<<<blocks, THREADS, 0, stream>>>(
            reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp), rows);
    } else {
        long long want = (rows * 32 + THREADS - 1) / THREADS;
        const int blocks = (int)(want < cap ? want : cap);
        softmax_octet_fallback_kernel<<<blocks, THREADS, 0, stream>>>(xp, yp, rows, cols);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "softmax octet launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

softmax_octet_ext = load_inline(
    name="softmax_short_rows_persistent_octet_float4_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["softmax_octet_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return softmax_octet_ext.softmax_octet_forward(x, stream)
