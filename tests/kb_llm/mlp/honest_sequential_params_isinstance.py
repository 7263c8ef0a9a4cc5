# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

// y = act(x @ W^T + b), one warp per output element, lanes split the reduction.
__global__ void fc_warp_kernel(const float* __restrict__ x, const float* __restrict__ W, const float* __restrict__ b,
                               float* __restrict__ y, int B, int IN, int OUT, int apply_relu) {
    int warp_id = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp_id >= B * OUT) return;
    int r = warp_id / OUT, c = warp_id % OUT;
    float s = 0.f;
    for (int k = lane; k < IN; k += 32) s += x[r * IN + k] * W[c * IN + k];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0) {
        s += b[c];
        y[r * OUT + c] = apply_relu ? fmaxf(s, 0.f) : s;
    }
}

torch::Tensor fc(torch::Tensor x, torch::Tensor W, torch::Tensor b, bool apply_relu) {
    const int B = x.size(0), IN = x.size(1), OUT = W.size(0);
    auto y = torch::empty({B, OUT}, x.options());
    const long threads = (long)B * OUT * 32;
    fc_warp_kernel<<<(threads + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), W.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(), B, IN, OUT, apply_relu);
    return y;
}
"""

fc_module = load_inline(name="fc_warp", cpp_sources="torch::Tensor fc(torch::Tensor x, torch::Tensor W, "
                                                    "torch::Tensor b, bool apply_relu);",
                        cuda_sources=cuda_source, functions=["fc"])


class ModelNew(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super().__init__()
        layers = []
        current_input_size = input_size
        for layer_size in layer_sizes:
            layers.append(nn.Linear(current_input_size, layer_size))
            layers.append(nn.ReLU())
            current_input_size = layer_size
        layers.append(nn.Linear(current_input_size, output_size))
        self.network = nn.Sequential(*layers)   # same parameter names as the reference

    def forward(self, x):
        modules = list(self.network)
        for idx, module in enumerate(modules):
            if isinstance(module, nn.Linear):
                relu_next = idx + 1 < len(modules) and isinstance(modules[idx + 1], nn.ReLU)
                x = fc_module.fc(x.contiguous(), module.weight, module.bias, relu_next)
        return x
