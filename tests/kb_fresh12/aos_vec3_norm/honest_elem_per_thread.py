# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor vec3_normalize_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: one thread per output element (like a generic elementwise kernel). Each thread recomputes
// the norm of its row from the row's three values (neighbouring threads share them through L1), then
// writes its own element, so stores are fully coalesced 4-byte writes.

__global__ void vec3_norm_elem_kernel(const float* __restrict__ x, float* __restrict__ out,
                                      int64_t total, float eps) {
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total) return;
    int64_t row = t / 3;
    const float* p = x + row * 3;
    float a = __ldg(p + 0);
    float b = __ldg(p + 1);
    float c = __ldg(p + 2);
    float nrm = sqrtf(a * a + b * b + c * c);
    out[t] = __ldg(x + t) / fmaxf(nrm, eps);
}

torch::Tensor vec3_normalize_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2 && x.size(1) == 3, "x must have shape (n, 3)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int64_t total = xc.numel();
    if (total == 0) return out;
    const int threads = 256;
    int64_t blocks = (total + threads - 1) / threads;
    vec3_norm_elem_kernel<<<(unsigned int)blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(), total, 1e-12f);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_vec3_norm_elem_per_thread",
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
