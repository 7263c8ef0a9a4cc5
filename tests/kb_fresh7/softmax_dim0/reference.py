import torch
import torch.nn as nn

class Model(nn.Module):
    """Softmax over dim 0 (down the columns) of an (R, C) tensor."""
    def __init__(self):
        super().__init__()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=0)

rows = 4096
cols = 8192

def get_inputs():
    return [torch.randn(rows, cols)]

def get_init_inputs():
    return []
