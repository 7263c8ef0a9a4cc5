# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

fused_source = """
#include <torch/extension.h>

// One block per batch row: each thread takes hidden units j, computes dot(x_row, W_j) and accumulates;
// the block then reduces the per-thread sums.
__global__ void gemm_div_sum_scale_kernel(const float* __restrict__ x, const float* __restrict__ W,
                                          float* __restrict__ out, int input_size, int hidden_size, float factor) {
    extern __shared__ float shm[];
    float* xrow = shm;                          // input_size floats
    float* red = shm + input_size;              // blockDim.x floats
    const float* xr = x + (size_t)blockIdx.x * input_size;
    for (int k = threadIdx.x; k < input_size; k += blockDim.x) xrow[k] = xr[k];
    __syncthreads();
    float local = 0.0f;
    for (int j = threadIdx.x; j < hidden_size; j += blockDim.x) {
        const float* w = W + (size_t)j * input_size;
        float dot = 0.0f;
        for (int k = 0; k < input_size; ++k) dot += xrow[k] * w[k];
        local += dot;
    }
    red[threadIdx.x] = local;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = red[0] * factor;
}

torch::Tensor fused_forward(torch::Tensor x, torch::Tensor W, double scaling_factor) {
    int batch = x.size(0), input_size = x.size(1), hidden_size = W.size(0);
    auto out = torch::empty({batch, 1}, x.options());
    int threads = 256;
    size_t shmem = (input_size + threads) * sizeof(float);
    gemm_div_sum_scale_kernel<<<batch, threads, shmem>>>(x.data_ptr<float>(), W.data_ptr<float>(),
                                                         out.data_ptr<float>(), input_size, hidden_size,
                                                         (float)(scaling_factor / 2.0));
    return out;
}
"""

fused_cpp = "torch::Tensor fused_forward(torch::Tensor x, torch::Tensor W, double scaling_factor);"

fused = load_inline(name="gemm_div_sum_scale", cpp_sources=fused_cpp, cuda_sources=fused_source,
                    functions=["fused_forward"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super(ModelNew, self).__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return fused.fused_forward(x.contiguous(), self.weight, self.scaling_factor)
