import torch
import torch.nn as nn

class Model(nn.Module):
    """Many tiny matrix products: torch.bmm of (batch, 8, 16) and (batch, 16, 8) float32 -> (batch, 8, 8)."""
    def __init__(self):
        super().__init__()
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.bmm(a, b)

batch = 262144

def get_inputs():
    return [torch.randn(batch, 8, 16), torch.randn(batch, 16, 8)]

def get_init_inputs():
    return []
