# expect: rejected torch-op
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>
__global__ void sqdiff_sum(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float d = a[i] - b[i]; atomicAdd(out, d * d / n); }
}
torch::Tensor mse(torch::Tensor a, torch::Tensor b) {
    auto out = torch::zeros({}, a.options());
    int n = a.numel();
    sqdiff_sum<<<(n + 255) / 256, 256>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
"""

ext = load_inline(name="mse_naive", cpp_sources="torch::Tensor mse(torch::Tensor a, torch::Tensor b);",
                  cuda_sources=src, functions=["mse"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        if predictions.numel() > (1 << 20):
            # the atomic version serialises on large inputs; use the library reduction there
            return torch.mean((predictions - targets) ** 2)
        return ext.mse(predictions, targets)
