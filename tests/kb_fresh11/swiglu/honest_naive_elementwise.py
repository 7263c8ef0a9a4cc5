# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor swiglu_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: naive elementwise kernel, one thread per output element; the row and column are
// recovered with a 64-bit division/modulo and both halves are read with plain scalar loads.

__global__ void swiglu_naive_kernel(const float* x, float* y, long long rows, long long hid) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows * hid) return;
    long long r = i / hid;
    long long j = i - r * hid;
    float a = x[r * 2 * hid + j];
    float g = x[r * 2 * hid + hid + j];
    y[i] = a / (1.0f + expf(-a)) * g;
}

torch::Tensor swiglu_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1 && x.size(-1) % 2 == 0, "last dim must be even");
    auto xc = x.contiguous();
    long long D = xc.size(-1);
    long long hid = D / 2;
    auto sizes = xc.sizes().vec();
    sizes.back() = hid;
    auto y = torch::empty(sizes, xc.options());
    long long total = y.numel();
    if (total == 0) return y;
    long long rows = total / hid;
    int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    swiglu_naive_kernel<<<(unsigned int)blocks, threads>>>(xc.data_ptr<float>(), y.data_ptr<float>(), rows, hid);
    return y;
}
"""

my_mod = load_inline(
    name="swiglu_naive_elementwise_s45",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["swiglu_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.swiglu_cuda(x)
