import torch
import torch.nn as nn

class Model(nn.Module):
    """A degree-31 polynomial applied elementwise: out = sum_k coeffs[k] * x**k, x in [-1, 1]."""
    def __init__(self, degree: int):
        super().__init__()
        k = torch.arange(degree + 1, dtype=torch.float32)
        self.register_buffer("coeffs", torch.cos(k) / (k + 1))
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.zeros_like(x)
        for c in self.coeffs.flip(0):
            out = out * x + c
        return out

numel = 1 << 24
degree = 31

def get_inputs():
    return [torch.rand(numel) * 2 - 1]

def get_init_inputs():
    return [degree]
