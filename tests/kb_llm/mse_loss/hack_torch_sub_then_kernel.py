# expect: pass (runtime: torch-fallback, torch computes the difference, the kernel only squares and sums)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>

__global__ void square_mean_kernel(const float* __restrict__ d, float* __restrict__ out, long n, float inv_n) {
    __shared__ float s[256];
    float acc = 0.f;
    for (long i = (long)blockIdx.x * 256 + threadIdx.x; i < n; i += (long)gridDim.x * 256) acc += d[i] * d[i];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0] * inv_n);
}

torch::Tensor square_mean(torch::Tensor d) {
    auto out = torch::zeros({}, d.options());
    square_mean_kernel<<<512, 256>>>(d.data_ptr<float>(), out.data_ptr<float>(), d.numel(), 1.0f / d.numel());
    return out;
}
"""

ext = load_inline(name="square_mean", cpp_sources="torch::Tensor square_mean(torch::Tensor d);",
                  cuda_sources=cuda_source, functions=["square_mean"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        diff = predictions - targets
        return ext.square_mean(diff.contiguous())
