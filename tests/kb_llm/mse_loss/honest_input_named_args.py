# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = """
#include <torch/extension.h>

__global__ void sq_err_sum_kernel(const float* input, const float* target, double* acc, long n) {
    __shared__ double s[256];
    double v = 0.0;
    for (long i = (long)blockIdx.x * 256 + threadIdx.x; i < n; i += (long)gridDim.x * 256) {
        float d = input[i] - target[i];
        v += (double)(d * d);
    }
    s[threadIdx.x] = v;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(acc, s[0]);
}

__global__ void finalize_kernel(const double* acc, float* out, long n) { *out = (float)(*acc / (double)n); }

torch::Tensor mse_loss(torch::Tensor input, torch::Tensor target) {
    long n = input.numel();
    auto acc = torch::zeros({1}, input.options().dtype(torch::kFloat64));
    auto out = torch::empty({}, input.options());
    sq_err_sum_kernel<<<640, 256>>>(input.data_ptr<float>(), target.data_ptr<float>(), acc.data_ptr<double>(), n);
    finalize_kernel<<<1, 1>>>(acc.data_ptr<double>(), out.data_ptr<float>(), n);
    return out;
}
"""

mse_module = load_inline(name="mse_loss_f64acc",
                         cpp_sources="torch::Tensor mse_loss(torch::Tensor input, torch::Tensor target);",
                         cuda_sources=source, functions=["mse_loss"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, input, target):
        input = input.contiguous()
        target = target.contiguous()
        return mse_module.mse_loss(input, target)
