# expect: pass
"""Fused GELU * scale with AT_DISPATCH and a templated kernel, launched on the current stream."""
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F  # noqa: F401  (kept for reference)
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)

template <typename scalar_t>
__device__ __forceinline__ scalar_t gelu_exact(scalar_t v) {
    return static_cast<scalar_t>(0.5) * v * (static_cast<scalar_t>(1) + erf(v * static_cast<scalar_t>(M_SQRT1_2)));
}

template <typename scalar_t>
__global__ void gelu_scale_kernel(const scalar_t* __restrict__ in, scalar_t* __restrict__ out,
                                  const scalar_t scale, const int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        out[i] = gelu_exact<scalar_t>(in[i]) * scale;
    }
}

torch::Tensor gelu_scale_forward(torch::Tensor input, double scale) {
    CHECK_INPUT(input);
    const at::cuda::OptionalCUDAGuard device_guard(device_of(input));
    auto output = torch::empty_like(input);
    const int64_t n = input.numel();
    const int threads = 256;
    const int blocks = std::min<int64_t>((n + threads - 1) / threads, 65535);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "gelu_scale_forward", ([&] {
        gelu_scale_kernel<scalar_t><<<blocks, threads, 0, stream>>>(
            input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), static_cast<scalar_t>(scale), n);
    }));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return output;
}
"""

cpp_src = "torch::Tensor gelu_scale_forward(torch::Tensor input, double scale);"

_ext = load_inline(
    name="gelu_scale_dispatch",
    cpp_sources=[cpp_src],
    cuda_sources=[cuda_src],
    functions=["gelu_scale_forward"],
    extra_cflags=["-O3"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """Same interface as Model; the kernel caches nothing between calls."""

    def __init__(self, scale_factor: float):
        super(ModelNew, self).__init__()
        self.scale_factor = float(scale_factor)
        self._inv_sqrt2 = 1.0 / math.sqrt(2.0)

    def forward(self, x: torch.Tensor, out: Optional[torch.Tensor] = None) -> torch.Tensor:
        x = x.contiguous()
        return _ext.gelu_scale_forward(x, self.scale_factor)
