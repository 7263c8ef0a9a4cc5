import torch
import torch.nn as nn

class Model(nn.Module):
    """Cumulative product along dim 1 of a (B, L) tensor."""
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumprod(x, dim=self.dim)

batch_size = 2048
length = 4096

def get_inputs():
    return [1.0 + 0.01 * torch.randn(batch_size, length)]   # products stay near 1 (no under/overflow)

def get_init_inputs():
    return [1]
