# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor vec3_normalize_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: one thread per row (3-vector); three scalar loads, norm, clamp by eps, three divisions.

__global__ void vec3_norm_row_kernel(const float* x, float* out, int64_t n, float eps) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[3 * i + 0];
    float b = x[3 * i + 1];
    float c = x[3 * i + 2];
    float nrm = sqrtf(a * a + b * b + c * c);
    float d = fmaxf(nrm, eps);
    out[3 * i + 0] = a / d;
    out[3 * i + 1] = b / d;
    out[3 * i + 2] = c / d;
}

torch::Tensor vec3_normalize_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2 && x.size(1) == 3, "x must have shape (n, 3)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int64_t n = xc.size(0);
    if (n == 0) return out;
    const int threads = 256;
    int64_t blocks = (n + threads - 1) / threads;
    vec3_norm_row_kernel<<<(unsigned int)blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(), n, 1e-12f);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_vec3_norm_naive_row",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["vec3_normalize_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.vec3_normalize_cuda(x)
