# expect: pass flag torch-tail
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>

__global__ void squared_diff_partials(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ partials, int64_t n, float inv_n) {
    extern __shared__ float smem[];
    float sum = 0.f;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        float d = a[i] - b[i];
        sum += d * d;
    }
    smem[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) smem[threadIdx.x] += smem[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) partials[blockIdx.x] = smem[0] * inv_n;   // this block's share of the mean
}

torch::Tensor block_partials(torch::Tensor a, torch::Tensor b) {
    const int blocks = 2048, threads = 512;
    auto partials = torch::empty({blocks}, a.options());
    squared_diff_partials<<<blocks, threads, threads * sizeof(float)>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), partials.data_ptr<float>(), a.numel(), 1.0f / a.numel());
    return partials;
}
"""

ext = load_inline(name="mse_partials", cpp_sources="torch::Tensor block_partials(torch::Tensor a, torch::Tensor b);",
                  cuda_sources=cuda_src, functions=["block_partials"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        partials = ext.block_partials(predictions.contiguous(), targets.contiguous())
        return partials.sum()   # 2048 shares of the mean: the last sum stays in PyTorch
