# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

// One thread per column; three separate passes down the column (max, sum, write).
__global__ void softmax_dim0_naive_kernel(const float* __restrict__ x, float* __restrict__ y, int R, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float m = -INFINITY;
    for (int r = 0; r < R; ++r) {
        m = fmaxf(m, x[(size_t)r * C + c]);
    }
    float s = 0.0f;
    for (int r = 0; r < R; ++r) {
        s += expf(x[(size_t)r * C + c] - m);
    }
    for (int r = 0; r < R; ++r) {
        size_t i = (size_t)r * C + c;
        y[i] = expf(x[i] - m) / s;
    }
}

torch::Tensor softmax_dim0_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    x = x.contiguous();
    int R = (int)x.size(0);
    int C = (int)x.size(1);
    auto y = torch::empty_like(x);
    if (R == 0 || C == 0) return y;
    int threads = 256;
    int blocks = (C + threads - 1) / threads;
    softmax_dim0_naive_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), R, C);
    return y;
}
"""

cpp_src = "torch::Tensor softmax_dim0_forward(torch::Tensor x);"

softmax_dim0_naive_ext = load_inline(
    name="softmax_dim0_naive_three_pass",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["softmax_dim0_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax_dim0_naive_ext.softmax_dim0_forward(x)
