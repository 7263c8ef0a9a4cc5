# expect: pass (runtime: incorrect, the division by 2 is forgotten)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = """
#include <torch/extension.h>
__global__ void gemm_sum(const float* x, const float* w, float* out, int in_f, int hid, float scale) {
    __shared__ float s[256];
    float acc = 0.f;
    for (int j = threadIdx.x; j < hid; j += 256) {
        float d = 0.f;
        for (int k = 0; k < in_f; ++k) d += x[blockIdx.x * in_f + k] * w[j * in_f + k];
        acc += d;
    }
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) { if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k]; __syncthreads(); }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] * scale;
}
torch::Tensor gemm_sum_scale(torch::Tensor x, torch::Tensor w, double scale) {
    auto out = torch::empty({x.size(0), 1}, x.options());
    gemm_sum<<<x.size(0), 256>>>(x.data_ptr<float>(), w.data_ptr<float>(), out.data_ptr<float>(), x.size(1),
                                 w.size(0), (float)scale);
    return out;
}
"""

ops = load_inline(name="gemm_sum_nohalf", cpp_sources="torch::Tensor gemm_sum_scale(torch::Tensor x, torch::Tensor w, "
                                                      "double scale);",
                  cuda_sources=source, functions=["gemm_sum_scale"])


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return ops.gemm_sum_scale(x.contiguous(), self.weight, self.scaling_factor)
