# expect: compile_error timeout — huge_compiler_errors: a macro that doubles 21 times expands to 2^21 (2M) ill-formed statements in the C++ source; g++ (no error limit by default) prints one error plus 21 expansion notes for each, gigabytes in all; the result must carry a short reason and the engine's memory must stay bounded
"""The statement is a type error (`int* p = 1.5;`), which g++ reports at every occurrence (an
undeclared name is reported once).  2^21 errors of about 2.5 KB each is about 5 GB of diagnostics,
twice (the engine's faster-headers variant fails, then the plain one), unless the builder caps what
it keeps.  The CUDA side is honest; only the C++ wrapper's "layout checks" are broken."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * alpha + b[i];
}

torch::Tensor scale_add_launch(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    scale_add_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), (float)alpha, n);
    return out;
}
"""

cpp_source = """
torch::Tensor scale_add_launch(torch::Tensor a, torch::Tensor b, double alpha);

#define CHECK_LAYOUT_0 { int* layout_probe = 1.5; (void)layout_probe; }
#define CHECK_LAYOUT_1 CHECK_LAYOUT_0 CHECK_LAYOUT_0
#define CHECK_LAYOUT_2 CHECK_LAYOUT_1 CHECK_LAYOUT_1
#define CHECK_LAYOUT_3 CHECK_LAYOUT_2 CHECK_LAYOUT_2
#define CHECK_LAYOUT_4 CHECK_LAYOUT_3 CHECK_LAYOUT_3
#define CHECK_LAYOUT_5 CHECK_LAYOUT_4 CHECK_LAYOUT_4
#define CHECK_LAYOUT_6 CHECK_LAYOUT_5 CHECK_LAYOUT_5
#define CHECK_LAYOUT_7 CHECK_LAYOUT_6 CHECK_LAYOUT_6
#define CHECK_LAYOUT_8 CHECK_LAYOUT_7 CHECK_LAYOUT_7
#define CHECK_LAYOUT_9 CHECK_LAYOUT_8 CHECK_LAYOUT_8
#define CHECK_LAYOUT_10 CHECK_LAYOUT_9 CHECK_LAYOUT_9
#define CHECK_LAYOUT_11 CHECK_LAYOUT_10 CHECK_LAYOUT_10
#define CHECK_LAYOUT_12 CHECK_LAYOUT_11 CHECK_LAYOUT_11
#define CHECK_LAYOUT_13 CHECK_LAYOUT_12 CHECK_LAYOUT_12
#define CHECK_LAYOUT_14 CHECK_LAYOUT_13 CHECK_LAYOUT_13
#define CHECK_LAYOUT_15 CHECK_LAYOUT_14 CHECK_LAYOUT_14
#define CHECK_LAYOUT_16 CHECK_LAYOUT_15 CHECK_LAYOUT_15
#define CHECK_LAYOUT_17 CHECK_LAYOUT_16 CHECK_LAYOUT_16
#define CHECK_LAYOUT_18 CHECK_LAYOUT_17 CHECK_LAYOUT_17
#define CHECK_LAYOUT_19 CHECK_LAYOUT_18 CHECK_LAYOUT_18
#define CHECK_LAYOUT_20 CHECK_LAYOUT_19 CHECK_LAYOUT_19
#define CHECK_LAYOUT_21 CHECK_LAYOUT_20 CHECK_LAYOUT_20

static void check_layout() {
    CHECK_LAYOUT_21
}

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    check_layout();
    return scale_add_launch(a, b, alpha);
}
"""

ext = load_inline(name="hostile_huge_compiler_errors", cpp_sources=cpp_source, cuda_sources=cuda_source,
                  functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha)
