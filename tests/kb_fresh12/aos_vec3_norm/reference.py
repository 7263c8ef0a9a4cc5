import torch
import torch.nn as nn

class Model(nn.Module):
    """Normalise 3-vectors stored as rows of an (n, 3) float32 matrix (array of structures):
    out = x / max(||x||_2, eps) per row, eps = 1e-12 (torch.nn.functional.normalize(x, dim=1))."""
    def __init__(self):
        super().__init__()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.normalize(x, p=2.0, dim=1, eps=1e-12)

n = 16777216

def get_inputs():
    return [torch.randn(n, 3)]

def get_init_inputs():
    return []
