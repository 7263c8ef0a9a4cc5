# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# sum_j (x . W_j) / 2 * s  ==  x . (sum_j W_j) * s / 2: reduce the weight's columns first, then one dot per row.
cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void column_sum_kernel(const float* __restrict__ W, float* __restrict__ colsum, int hidden, int in) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= in) return;
    float s = 0.f;
    for (int j = 0; j < hidden; ++j) s += W[(size_t)j * in + k];
    colsum[k] = s;
}

__global__ void row_dot_kernel(const float* __restrict__ x, const float* __restrict__ colsum, float* __restrict__ out,
                               int in, float factor) {
    __shared__ float warp_part[32];
    const float* xr = x + (size_t)blockIdx.x * in;
    float s = 0.f;
    for (int k = threadIdx.x; k < in; k += blockDim.x) s += xr[k] * colsum[k];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
    if ((threadIdx.x & 31) == 0) warp_part[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
        s = threadIdx.x < (blockDim.x >> 5) ? warp_part[threadIdx.x] : 0.f;
        for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
        if (threadIdx.x == 0) out[blockIdx.x] = s * factor;
    }
}

torch::Tensor forward_cuda(torch::Tensor x, torch::Tensor W, double scale) {
    const int batch = x.size(0), in = x.size(1), hidden = W.size(0);
    auto colsum = torch::empty({in}, x.options());
    auto out = torch::empty({batch, 1}, x.options());
    auto stream = at::cuda::getCurrentCUDAStream();
    column_sum_kernel<<<(in + 255) / 256, 256, 0, stream>>>(W.data_ptr<float>(), colsum.data_ptr<float>(), hidden, in);
    row_dot_kernel<<<batch, 256, 0, stream>>>(x.data_ptr<float>(), colsum.data_ptr<float>(), out.data_ptr<float>(),
                                              in, (float)(scale * 0.5));
    return out;
}
"""

ext = load_inline(name="gemm_sum_colsum", cpp_sources="torch::Tensor forward_cuda(torch::Tensor x, torch::Tensor W, "
                                                      "double scale);",
                  cuda_sources=cuda_src, functions=["forward_cuda"], extra_cuda_cflags=["-O3", "--use_fast_math"])


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return ext.forward_cuda(x.contiguous(), self.weight.contiguous(), self.scaling_factor)
