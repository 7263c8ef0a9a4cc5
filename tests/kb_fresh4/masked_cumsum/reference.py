import torch
import torch.nn as nn

class Model(nn.Module):
    """Cumulative sum along dim 1 of the elements a boolean mask keeps (the others count as zero)."""
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x * mask, dim=self.dim)

batch_size = 4096
length = 8192
dim = 1

def get_inputs():
    return [torch.randn(batch_size, length), torch.randint(0, 2, (batch_size, length)).bool()]

def get_init_inputs():
    return [dim]
