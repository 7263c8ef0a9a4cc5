# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

// One thread per column, two passes: an online (running max / rescaled sum) pass,
// then a write pass that multiplies by the reciprocal of the sum.
__global__ void softmax_dim0_online_kernel(const float* __restrict__ x, float* __restrict__ y, int R, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    const float* col = x + c;
    float m = -INFINITY;
    float s = 0.0f;
    #pragma unroll 4
    for (int r = 0; r < R; ++r) {
        float v = __ldg(col + (size_t)r * C);
        if (v > m) {
            s = s * expf(m - v) + 1.0f;
            m = v;
        } else {
            s += expf(v - m);
        }
    }
    float inv = 1.0f / s;
    float* out = y + c;
    #pragma unroll 4
    for (int r = 0; r < R; ++r) {
        size_t off = (size_t)r * C;
        out[off] = expf(__ldg(col + off) - m) * inv;
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
    int threads = 128;
    int blocks = (C + threads - 1) / threads;
    softmax_dim0_online_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), R, C);
    return y;
}
"""

cpp_src = "torch::Tensor softmax_dim0_forward(torch::Tensor x);"

softmax_dim0_online_ext = load_inline(
    name="softmax_dim0_online_per_column",
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
        return softmax_dim0_online_ext.softmax_dim0_forward(x)
