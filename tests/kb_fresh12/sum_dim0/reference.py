import torch
import torch.nn as nn

class Model(nn.Module):
    """Column sums of a tall matrix: torch.sum(x, dim=0) of (rows, cols) float32 -> (cols,)."""
    def __init__(self):
        super().__init__()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=0)

rows = 65536
cols = 1024

def get_inputs():
    return [torch.randn(rows, cols)]

def get_init_inputs():
    return []
