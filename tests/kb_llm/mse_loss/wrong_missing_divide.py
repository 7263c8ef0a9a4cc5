# expect: pass (runtime: incorrect, the sum instead of the mean)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mse_source = """
#include <torch/extension.h>

__global__ void mse_kernel(const float* pred, const float* target, float* out, int n) {
    __shared__ float cache[512];
    int tid = threadIdx.x;
    float temp = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
        float diff = pred[i] - target[i];
        temp += diff * diff;
    }
    cache[tid] = temp;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) cache[tid] += cache[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, cache[0]);
}

torch::Tensor mse_cuda(torch::Tensor pred, torch::Tensor target) {
    int n = pred.numel();
    auto out = torch::zeros({}, pred.options());
    mse_kernel<<<256, 512>>>(pred.data_ptr<float>(), target.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
"""

mse = load_inline(name="mse_sum", cpp_sources="torch::Tensor mse_cuda(torch::Tensor pred, torch::Tensor target);",
                  cuda_sources=mse_source, functions=["mse_cuda"])


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        return mse.mse_cuda(predictions.contiguous(), targets.contiguous())
