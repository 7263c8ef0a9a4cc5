# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

log_softmax_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cfloat>

#define RED_THREADS 256

__device__ __forceinline__ float warp_reduce_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffff, v, o));
    return v;
}
__device__ __forceinline__ float warp_reduce_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}

// Kernel 1: per-row maximum.
__global__ void row_max_kernel(const float* __restrict__ x, float* __restrict__ row_max, int cols) {
    __shared__ float warp_vals[RED_THREADS / 32];
    const float* xr = x + (int64_t)blockIdx.x * cols;
    float m = -FLT_MAX;
    for (int j = threadIdx.x; j < cols; j += RED_THREADS) m = fmaxf(m, xr[j]);
    m = warp_reduce_max(m);
    if ((threadIdx.x & 31) == 0) warp_vals[threadIdx.x >> 5] = m;
    __syncthreads();
    if (threadIdx.x < 32) {
        m = (threadIdx.x < RED_THREADS / 32) ? warp_vals[threadIdx.x] : -FLT_MAX;
        m = warp_reduce_max(m);
        if (threadIdx.x == 0) row_max[blockIdx.x] = m;
    }
}

// Kernel 2: per-row log-sum-exp, stored as max + log(sum(exp(x - max))).
__global__ void row_lse_kernel(const float* __restrict__ x, const float* __restrict__ row_max,
                               float* __restrict__ row_lse, int cols) {
    __shared__ float warp_vals[RED_THREADS / 32];
    const float* xr = x + (int64_t)blockIdx.x * cols;
    const float m = row_max[blockIdx.x];
    float s = 0.0f;
    for (int j = threadIdx.x; j < cols; j += RED_THREADS) s += expf(xr[j] - m);
    s = warp_reduce_sum(s);
    if ((threadIdx.x & 31) == 0) warp_vals[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
        s = (threadIdx.x < RED_THREADS / 32) ? warp_vals[threadIdx.x] : 0.0f;
        s = warp_reduce_sum(s);
        if (threadIdx.x == 0) row_lse[blockIdx.x] = m + logf(s);
    }
}

// Kernel 3: elementwise out = x - lse[row], one thread per element.
__global__ void subtract_lse_kernel(const float* __restrict__ x, const float* __restrict__ row_lse,
                                    float* __restrict__ out, int64_t total, int cols) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total) out[i] = x[i] - row_lse[i / cols];
}

torch::Tensor log_softmax_split(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int rows = xc.size(0);
    const int cols = xc.size(1);
    if (rows == 0 || cols == 0) return out;
    auto row_max = torch::empty({rows}, xc.options());
    auto row_lse = torch::empty({rows}, xc.options());
    auto stream = at::cuda::getCurrentCUDAStream();

    row_max_kernel<<<rows, RED_THREADS, 0, stream>>>(xc.data_ptr<float>(), row_max.data_ptr<float>(), cols);
    row_lse_kernel<<<rows, RED_THREADS, 0, stream>>>(
        xc.data_ptr<float>(), row_max.data_ptr<float>(), row_lse.data_ptr<float>(), cols);

    const int64_t total = (int64_t)rows * cols;
    const int threads = 512;
    const int64_t blocks = (total + threads - 1) / threads;
    subtract_lse_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
        xc.data_ptr<float>(), row_lse.data_ptr<float>(), out.data_ptr<float>(), total, cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

log_softmax_cpp_source = "torch::Tensor log_softmax_split(torch::Tensor x);"

log_softmax_ext = load_inline(
    name="kbf2_logsoftmax_three_kernel_split",
    cpp_sources=log_softmax_cpp_source,
    cuda_sources=log_softmax_source,
    functions=["log_softmax_split"],
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
        y = self.ext.log_softmax_split(x.contiguous().view(-1, shape[-1])).view(shape)
        if d != last:
            y = y.transpose(d, last)
        return y
