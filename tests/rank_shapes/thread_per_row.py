import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = """
#include <torch/extension.h>

__global__ void softmax_row_kernel(const float* x, float* y, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float m = x[r * cols];
    for (int c = 1; c < cols; ++c) m = fmaxf(m, x[r * cols + c]);
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += expf(x[r * cols + c] - m);
    for (int c = 0; c < cols; ++c) y[r * cols + c] = expf(x[r * cols + c] - m) / s;
}

torch::Tensor softmax_forward(torch::Tensor x, torch::Tensor y) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    int rows = x.size(0), cols = x.size(1);
    softmax_row_kernel<<<(rows + 127) / 128, 128>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    return y;
}
"""

softmax_ext = load_inline(
    name="softmax_thread_row",
    cpp_sources="torch::Tensor softmax_forward(torch::Tensor x, torch::Tensor y);",
    cuda_sources=cuda_src,
    functions=["softmax_forward"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        if not x.is_cuda:
            x = x.to(torch.device("cuda"))
        y = torch.empty_like(x, device=x.device)
        return softmax_ext.softmax_forward(x.contiguous(), y)
