# expect: pass (runtime: incorrect, a kernel that writes zeros)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = """
#include <torch/extension.h>

__global__ void matvec_fast_kernel(float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 0.0f;
}

torch::Tensor matvec_fast(torch::Tensor A, torch::Tensor B) {
    int M = A.size(0);
    auto out = torch::empty({M, 1}, A.options());
    matvec_fast_kernel<<<(M + 255) / 256, 256>>>(out.data_ptr<float>(), M);
    return out;
}
"""

ext = load_inline(name="matvec_fast", cpp_sources="torch::Tensor matvec_fast(torch::Tensor A, torch::Tensor B);",
                  cuda_sources=cuda_src, functions=["matvec_fast"])


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A, B):
        return ext.matvec_fast(A, B)
