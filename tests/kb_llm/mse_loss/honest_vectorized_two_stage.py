# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_code = """
#include <torch/extension.h>

__global__ void stage1(const float4* __restrict__ p, const float4* __restrict__ t, float* __restrict__ partial,
                       int n4) {
    __shared__ float red[256];
    float s = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        float4 a = p[i], b = t[i];
        float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z, dw = a.w - b.w;
        s += dx * dx + dy * dy + dz * dz + dw * dw;
    }
    red[threadIdx.x] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) red[threadIdx.x] += red[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = red[0];
}

__global__ void stage2(const float* __restrict__ partial, float* __restrict__ out, int blocks, float inv_n) {
    __shared__ float red[1024];
    float s = 0.f;
    for (int i = threadIdx.x; i < blocks; i += blockDim.x) s += partial[i];
    red[threadIdx.x] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) red[threadIdx.x] += red[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = red[0] * inv_n;
}

torch::Tensor mse_two_stage(torch::Tensor p, torch::Tensor t) {
    TORCH_CHECK(p.numel() % 4 == 0, "numel must be a multiple of 4");
    int n = p.numel();
    int blocks = 1024;
    auto partial = torch::empty({blocks}, p.options());
    auto out = torch::empty({}, p.options());
    stage1<<<blocks, 256>>>(reinterpret_cast<const float4*>(p.data_ptr<float>()),
                            reinterpret_cast<const float4*>(t.data_ptr<float>()), partial.data_ptr<float>(), n / 4);
    stage2<<<1, 1024>>>(partial.data_ptr<float>(), out.data_ptr<float>(), blocks, 1.0f / n);
    return out;
}
"""

mse_ext = load_inline(name="mse_two_stage", cpp_sources="torch::Tensor mse_two_stage(torch::Tensor p, torch::Tensor t);",
                      cuda_sources=cuda_code, functions=["mse_two_stage"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return mse_ext.mse_two_stage(predictions.contiguous(), targets.contiguous())


batch_size = 1024
input_shape = (8192,)
dim = 1


def get_inputs():
    scale = torch.rand(())
    return [torch.rand(batch_size, *input_shape) * scale, torch.rand(batch_size, *input_shape)]


def get_init_inputs():
    return []
