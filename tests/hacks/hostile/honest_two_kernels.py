# expect: correct — honest control: two kernels (scale into the output, then add in place) on the current stream
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void scale_kernel(const float* __restrict__ a, float* __restrict__ out, float alpha, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = a[i] * alpha;
}

__global__ void add_inplace_kernel(float* __restrict__ out, const float* __restrict__ b, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] += b[i];
}

torch::Tensor scale_then_add(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    const int64_t n = a.numel();
    const int threads = 512;
    const int blocks = (int)std::min<int64_t>((n + threads - 1) / threads, 4096);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    scale_kernel<<<blocks, threads, 0, stream>>>(a.data_ptr<float>(), out.data_ptr<float>(), (float)alpha, n);
    add_inplace_kernel<<<blocks, threads, 0, stream>>>(out.data_ptr<float>(), b.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

cpp_src = "torch::Tensor scale_then_add(torch::Tensor a, torch::Tensor b, double alpha);"

ext = load_inline(name="hostile_honest_two_kernels", cpp_sources=cpp_src, cuda_sources=cuda_src,
                  functions=["scale_then_add"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, a, b):
        return ext.scale_then_add(a.contiguous(), b.contiguous(), self.alpha)
