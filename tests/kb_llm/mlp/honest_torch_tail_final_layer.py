# expect: pass flag torch-tail
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>

#define TILE 16
__global__ void linear_relu_kernel(const float* x, const float* w, const float* b, float* y, int B, int IN, int OUT) {
    __shared__ float xs[TILE][TILE], ws[TILE][TILE + 1];
    int r = blockIdx.y * TILE + threadIdx.y, c = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < IN; k0 += TILE) {
        xs[threadIdx.y][threadIdx.x] = (r < B && k0 + threadIdx.x < IN) ? x[r * IN + k0 + threadIdx.x] : 0.f;
        int wr = blockIdx.x * TILE + threadIdx.y;
        ws[threadIdx.y][threadIdx.x] = (wr < OUT && k0 + threadIdx.x < IN) ? w[wr * IN + k0 + threadIdx.x] : 0.f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += xs[threadIdx.y][k] * ws[threadIdx.x][k];
        __syncthreads();
    }
    if (r < B && c < OUT) y[r * OUT + c] = fmaxf(acc + b[c], 0.f);
}

torch::Tensor linear_relu(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    int B = x.size(0), IN = x.size(1), OUT = w.size(0);
    auto y = torch::empty({B, OUT}, x.options());
    dim3 block(TILE, TILE), grid((OUT + TILE - 1) / TILE, (B + TILE - 1) / TILE);
    linear_relu_kernel<<<grid, block>>>(x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(),
                                        y.data_ptr<float>(), B, IN, OUT);
    return y;
}
"""

linear_relu = load_inline(name="hidden_linear_relu",
                          cpp_sources="torch::Tensor linear_relu(torch::Tensor x, torch::Tensor w, torch::Tensor b);",
                          cuda_sources=cuda_source, functions=["linear_relu"])


class ModelNew(nn.Module):
    """The hidden layers (almost all of the FLOPs) in a fused kernel; the small output layer in PyTorch."""

    def __init__(self, input_size, layer_sizes, output_size):
        super().__init__()
        self.hidden = nn.ModuleList()
        current = input_size
        for size in layer_sizes:
            self.hidden.append(nn.Linear(current, size))
            current = size
        self.out = nn.Linear(current, output_size)

    def forward(self, x):
        h = x.contiguous()
        for layer in self.hidden:
            h = linear_relu.linear_relu(h, layer.weight, layer.bias)
        return self.out(h)
