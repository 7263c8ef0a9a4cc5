# expect: pass
import math
from typing import Tuple

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

layernorm_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

// One block per row.  Two-pass statistics (mean, then variance) for accuracy.
__global__ void layernorm_fwd(const float* __restrict__ x, const float* __restrict__ gamma,
                              const float* __restrict__ beta, float* __restrict__ y, int n, float eps) {
    __shared__ float warp_buf[32];
    __shared__ float s_mean, s_rstd;
    const float* xr = x + (size_t)blockIdx.x * n;
    float* yr = y + (size_t)blockIdx.x * n;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;

    float s = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += xr[i];
    s = warp_sum(s);
    if (lane == 0) warp_buf[warp] = s;
    __syncthreads();
    if (warp == 0) {
        s = lane < nwarps ? warp_buf[lane] : 0.f;
        s = warp_sum(s);
        if (lane == 0) s_mean = s / n;
    }
    __syncthreads();
    const float mean = s_mean;

    float v = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) { float d = xr[i] - mean; v += d * d; }
    v = warp_sum(v);
    if (lane == 0) warp_buf[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < nwarps ? warp_buf[lane] : 0.f;
        v = warp_sum(v);
        if (lane == 0) s_rstd = rsqrtf(v / n + eps);
    }
    __syncthreads();
    const float rstd = s_rstd;
    for (int i = threadIdx.x; i < n; i += blockDim.x) yr[i] = (xr[i] - mean) * rstd * gamma[i] + beta[i];
}

torch::Tensor layernorm_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be CUDA");
    const int n = weight.numel();
    const int rows = x.numel() / n;
    auto y = torch::empty_like(x);
    layernorm_fwd<<<rows, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(), n, (float)eps);
    return y;
}
"""

layernorm_cpp = "torch::Tensor layernorm_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

layernorm_ext = load_inline(
    name="layernorm_ext",
    cpp_sources=layernorm_cpp,
    cuda_sources=layernorm_cuda,
    functions=["layernorm_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super(ModelNew, self).__init__()
        self.normalized_shape: Tuple[int, ...] = tuple(normalized_shape)
        self.eps = 1e-5
        n = math.prod(self.normalized_shape)
        self.weight = nn.Parameter(torch.ones(n))
        self.bias = nn.Parameter(torch.zeros(n))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return layernorm_ext.layernorm_forward(x.contiguous(), self.weight, self.bias, self.eps)
