# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor logsumexp_warp_rows(torch::Tensor x, int64_t stream_ptr);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>

#define THREADS 256
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ void online_add(float& m, float& s, float v) {
    if (v > m) {
        s = s * __expf(m - v) + 1.0f;
        m = v;
    } else if (v != -INFINITY) {
        s += __expf(v - m);
    }
}

__device__ __forceinline__ void online_add4(float& m, float& s, float4 v) {
    const float M = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
    if (M == -INFINITY) return;
    s = s * __expf(m - M) + (__expf(v.x - M) + __expf(v.y - M)) + (__expf(v.z - M) + __expf(v.w - M));
    m = M;
}

__device__ __forceinline__ void lse_merge(float& m, float& s, float m2, float s2) {
    const float M = fmaxf(m, m2);
    if (M == -INFINITY) return;
    s = s * __expf(m - M) + s2 * __expf(m2 - M);
    m = M;
}

// Persistent grid (a few blocks per SM); each warp grabs rows in a grid-stride loop and reduces a
// whole row on its own: coalesced float4 loads (512 B per warp per load), two loads in flight per
// iteration, an online (max, sum) per lane, and a 5-step __shfl_xor merge. No shared memory, no
// __syncthreads.
template <bool VEC>
__global__ void __launch_bounds__(THREADS) logsumexp_warp_row_kernel(const float* __restrict__ x,
                                                                     float* __restrict__ y, int rows, int cols) {
    const int lane = threadIdx.x & 31;
    const int warps_per_block = THREADS / 32;
    const int nwarps = gridDim.x * warps_per_block;
    for (int row = blockIdx.x * warps_per_block + (threadIdx.x >> 5); row < rows; row += nwarps) {
        const float* xr = x + (long long)row * cols;
        float m = -INFINITY, s = 0.0f;
        if (VEC) {
            const float4* xv = reinterpret_cast<const float4*>(xr);
            const int n4 = cols >> 2;
            int i = lane;
            for (; i + 32 < n4; i += 64) {
                const float4 a = __ldg(xv + i);
                const float4 b = __ldg(xv + i + 32);
                online_add4(m, s, a);
                online_add4(m, s, b);
            }
            if (i < n4) online_add4(m, s, __ldg(xv + i));
        } else {
            for (int c = lane; c < cols; c += 32) online_add(m, s, __ldg(xr + c));
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            const float m2 = __shfl_xor_sync(FULL_MASK, m, o);
            const float s2 = __shfl_xor_sync(FULL_MASK, s, o);
            lse_merge(m, s, m2, s2);
        }
        if (lane == 0) y[row] = (m == -INFINITY) ? -INFINITY : m + logf(s);
    }
}

torch::Tensor logsumexp_warp_rows(torch::Tensor x, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto xc = x.contiguous();
    const long long cols = xc.size(-1);
    TORCH_CHECK(cols > 0 && cols < 2147483647LL, "bad last dimension");
    const long long rows = xc.numel() / cols;
    TORCH_CHECK(rows < 2147483647LL, "too many rows");
    auto out_sizes = xc.sizes().vec();
    out_sizes.pop_back();
    auto y = torch::empty(out_sizes, xc.options());
    if (rows == 0) return y;

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 80;
    const long long need = (rows + THREADS / 32 - 1) / (THREADS / 32);
    const long long cap = (long long)sms * 8;
    const unsigned blocks = (unsigned)(need < cap ? need : cap);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    const float* xp = xc.data_ptr<float>();
    const bool vec = (cols % 4 == 0) && (reinterpret_cast<uintptr_t>(xp) % 16 == 0);
    if (vec) {
        logsumexp_warp_row_kernel<true><<<blocks, THREADS, 0, stream>>>(xp, y.data_ptr<float>(), (int)rows,
                                                                         (int)cols);
    } else {
        logsumexp_warp_row_kernel<false><<<blocks, THREADS, 0, stream>>>(xp, y.data_ptr<float>(), (int)rows,
                                                                          (int)cols);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

logsumexp_warp_rows_mod = load_inline(
    name="logsumexp_lastdim_warp_per_row_persistent_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["logsumexp_warp_rows"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return logsumexp_warp_rows_mod.logsumexp_warp_rows(x, stream)
