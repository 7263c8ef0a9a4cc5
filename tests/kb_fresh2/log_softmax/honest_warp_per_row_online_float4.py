# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

log_softmax_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cfloat>
#include <cstdint>

#define ROWS_PER_BLOCK 4

__device__ __forceinline__ void online_update(float& m, float& s, float v) {
    if (v > m) {
        s = s * __expf(m - v) + 1.0f;
        m = v;
    } else {
        s += __expf(v - m);
    }
}

// One warp per row, ROWS_PER_BLOCK rows per block. Each lane keeps an online
// (max, sum) pair over float4 loads; the warp merges the pairs with xor shuffles,
// so no shared memory or block barrier is needed. Second pass writes the result.
template <bool VEC>
__global__ void log_softmax_warp_kernel(const float* __restrict__ x,
                                        float* __restrict__ out,
                                        int rows, int cols) {
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * ROWS_PER_BLOCK + (threadIdx.x >> 5);
    if (row >= rows) return;   // uniform per warp
    const float* xr = x + (int64_t)row * cols;
    float* outr = out + (int64_t)row * cols;

    float m = -FLT_MAX;
    float s = 0.0f;
    int tail = 0;
    if (VEC) {
        const int n4 = cols >> 2;
        const float4* xr4 = reinterpret_cast<const float4*>(xr);
        for (int i = lane; i < n4; i += 32) {
            const float4 v = __ldg(&xr4[i]);
            online_update(m, s, v.x);
            online_update(m, s, v.y);
            online_update(m, s, v.z);
            online_update(m, s, v.w);
        }
        tail = n4 << 2;
    }
    for (int j = tail + lane; j < cols; j += 32) online_update(m, s, __ldg(&xr[j]));

    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m_o = __shfl_xor_sync(0xffffffff, m, o);
        const float s_o = __shfl_xor_sync(0xffffffff, s, o);
        const float m_new = fmaxf(m, m_o);
        s = s * __expf(m - m_new) + s_o * __expf(m_o - m_new);
        m = m_new;
    }
    const float shift = m + __logf(s);

    if (VEC) {
        const int n4 = cols >> 2;
        const float4* xr4 = reinterpret_cast<const float4*>(xr);
        float4* outr4 = reinterpret_cast<float4*>(outr);
        for (int i = lane; i < n4; i += 32) {
            float4 v = __ldg(&xr4[i]);
            v.x -= shift; v.y -= shift; v.z -= shift; v.w -= shift;
            outr4[i] = v;
        }
    }
    for (int j = tail + lane; j < cols; j += 32) outr[j] = __ldg(&xr[j]) - shift;
}

torch::Tensor log_softmax_warp(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int rows = xc.size(0);
    const int cols = xc.size(1);
    if (rows == 0 || cols == 0) return out;
    const bool vec = (cols % 4 == 0) &&
                     (reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(out.data_ptr<float>()) % 16 == 0);
    const int threads = ROWS_PER_BLOCK * 32;
    const int blocks = (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK;
    auto stream = at::cuda::getCurrentCUDAStream();
    if (vec) {
        log_softmax_warp_kernel<true><<<blocks, threads, 0, stream>>>(
            xc.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    } else {
        log_softmax_warp_kernel<false><<<blocks, threads, 0, stream>>>(
            xc.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

log_softmax_cpp_source = "torch::Tensor log_softmax_warp(torch::Tensor x);"

log_softmax_ext = load_inline(
    name="kbf2_logsoftmax_warp_per_row_online_float4",
    cpp_sources=log_softmax_cpp_source,
    cuda_sources=log_softmax_source,
    functions=["log_softmax_warp"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
        self.ext = log_softmax_ext

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        last = x.dim() - 1
        if d != last:
            x = x.transpose(d, last)
        shape = x.shape
        y = self.ext.log_softmax_warp(x.contiguous().view(-1, shape[-1])).view(shape)
        if d != last:
            y = y.transpose(d, last)
        return y
