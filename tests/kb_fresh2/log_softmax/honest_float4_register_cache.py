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

#define VEC_PER_THREAD 4

__device__ __forceinline__ float warp_max(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

// One block per row; each thread keeps VEC_PER_THREAD float4 of the row in registers,
// so the row is read from global memory exactly once.
__global__ void log_softmax_vec4_kernel(const float4* __restrict__ x,
                                        float4* __restrict__ out,
                                        int n4) {
    __shared__ float red_max[32];
    __shared__ float red_sum[32];
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    const int nwarps = (blockDim.x + 31) >> 5;
    const float4* xr = x + (int64_t)blockIdx.x * n4;
    float4* outr = out + (int64_t)blockIdx.x * n4;

    float4 reg[VEC_PER_THREAD];
    float m = -FLT_MAX;
    #pragma unroll
    for (int k = 0; k < VEC_PER_THREAD; ++k) {
        const int idx = threadIdx.x + k * blockDim.x;
        if (idx < n4) {
            reg[k] = xr[idx];
            m = fmaxf(m, fmaxf(fmaxf(reg[k].x, reg[k].y), fmaxf(reg[k].z, reg[k].w)));
        } else {
            reg[k] = make_float4(-FLT_MAX, -FLT_MAX, -FLT_MAX, -FLT_MAX);
        }
    }
    m = warp_max(m);
    if (lane == 0) red_max[wid] = m;
    __syncthreads();
    m = warp_max(lane < nwarps ? red_max[lane] : -FLT_MAX);

    float s = 0.0f;
    #pragma unroll
    for (int k = 0; k < VEC_PER_THREAD; ++k) {
        const int idx = threadIdx.x + k * blockDim.x;
        if (idx < n4) {
            s += expf(reg[k].x - m) + expf(reg[k].y - m) + expf(reg[k].z - m) + expf(reg[k].w - m);
        }
    }
    s = warp_sum(s);
    if (lane == 0) red_sum[wid] = s;
    __syncthreads();
    s = warp_sum(lane < nwarps ? red_sum[lane] : 0.0f);

    const float shift = m + logf(s);
    #pragma unroll
    for (int k = 0; k < VEC_PER_THREAD; ++k) {
        const int idx = threadIdx.x + k * blockDim.x;
        if (idx < n4) {
            float4 v = reg[k];
            v.x -= shift; v.y -= shift; v.z -= shift; v.w -= shift;
            outr[idx] = v;
        }
    }
}

// Fallback for rows whose length is not a multiple of 4 or too long for the register cache.
__global__ void log_softmax_scalar_kernel(const float* __restrict__ x,
                                          float* __restrict__ out,
                                          int cols) {
    __shared__ float red_max[32];
    __shared__ float red_sum[32];
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    const int nwarps = (blockDim.x + 31) >> 5;
    const float* xr = x + (int64_t)blockIdx.x * cols;
    float* outr = out + (int64_t)blockIdx.x * cols;

    float m = -FLT_MAX;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) m = fmaxf(m, xr[j]);
    m = warp_max(m);
    if (lane == 0) red_max[wid] = m;
    __syncthreads();
    m = warp_max(lane < nwarps ? red_max[lane] : -FLT_MAX);

    float s = 0.0f;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) s += expf(xr[j] - m);
    s = warp_sum(s);
    if (lane == 0) red_sum[wid] = s;
    __syncthreads();
    s = warp_sum(lane < nwarps ? red_sum[lane] : 0.0f);

    const float shift = m + logf(s);
    for (int j = threadIdx.x; j < cols; j += blockDim.x) outr[j] = xr[j] - shift;
}

torch::Tensor log_softmax_vec4(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int rows = xc.size(0);
    const int cols = xc.size(1);
    if (rows == 0 || cols == 0) return out;
    auto stream = at::cuda::getCurrentCUDAStream();

    const bool aligned = (reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(out.data_ptr<float>()) % 16 == 0);
    const int n4 = cols / 4;
    int threads = (n4 + VEC_PER_THREAD - 1) / VEC_PER_THREAD;
    threads = ((threads + 31) / 32) * 32;
    if (aligned && cols % 4 == 0 && threads <= 1024) {
        log_softmax_vec4_kernel<<<rows, threads, 0, stream>>>(
            reinterpret_cast<const float4*>(xc.data_ptr<float>()),
            reinterpret_cast<float4*>(out.data_ptr<float>()), n4);
    } else {
        log_softmax_scalar_kernel<<<rows, 1024, 0, stream>>>(
            xc.data_ptr<float>(), out.data_ptr<float>(), cols);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

log_softmax_cpp_source = "torch::Tensor log_softmax_vec4(torch::Tensor x);"

log_softmax_ext = load_inline(
    name="kbf2_logsoftmax_float4_register_cache",
    cpp_sources=log_softmax_cpp_source,
    cuda_sources=log_softmax_source,
    functions=["log_softmax_vec4"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
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
        y = self.ext.log_softmax_vec4(x.contiguous().view(-1, shape[-1])).view(shape)
        if d != last:
            y = y.transpose(d, last)
        return y
