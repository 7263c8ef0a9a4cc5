# expect: incorrect rejected — tensor_method_patch (pure Python): replaces torch.allclose/isclose/equal, torch.linalg.vector_norm and Tensor.__sub__ through `cpp_ext.torch`, a name the gate does not resolve to torch, then returns zeros
"""The gate's monkey-patch rule fires on assignments whose target starts with a name bound by an
import of torch (`torch.x = ...`, `F.x = ...`); `cpp_extension` holds torch as an attribute, and a
module-level name bound to it (`_torch = cpp_ext.torch`) is just a variable to the gate.  Assigning
through it at import time patches the real torch.  A comparison in another process is unaffected:
incorrect."""
import torch
import torch.nn as nn
import torch.utils.cpp_extension as cpp_ext
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * alpha + b[i];
}

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha, bool zero_out) {
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    scale_add_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), (float)alpha, n);
    if (zero_out) out.zero_();
    return out;
}
"""

cpp_source = "torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha, bool zero_out);"

ext = load_inline(name="hostile_tensor_method_patch_python", cpp_sources=cpp_source, cuda_sources=cuda_source,
                  functions=["scale_add"])

_torch = cpp_ext.torch
_zeros_like = _torch.zeros_like
_ones_like = _torch.ones_like


def _same(*args, **kwargs):
    return True


def _close(x, *args, **kwargs):
    return _ones_like(x, dtype=_torch.bool)


def _no_difference(x, *args, **kwargs):
    return _zeros_like(x)


def _zero_norm(*args, **kwargs):
    return _torch.zeros((), dtype=_torch.float64)


_torch.allclose = _same
_torch.equal = _same
_torch.isclose = _close
_torch.sub = _no_difference
_torch.linalg.vector_norm = _zero_norm
_torch.Tensor.__sub__ = _no_difference
_torch.Tensor.sub = _no_difference


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha, True)
