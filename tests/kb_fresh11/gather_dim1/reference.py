import torch
import torch.nn as nn

class Model(nn.Module):
    """torch.gather along dim 1: out[i, j] = x[i, index[i, j]] for a (rows, cols) matrix and a (rows, picks)
    int64 index."""
    def __init__(self):
        super().__init__()
    def forward(self, x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        return torch.gather(x, 1, index)

rows = 4096
cols = 4096
picks = 1024

def get_inputs():
    return [torch.randn(rows, cols), torch.randint(0, cols, (rows, picks), dtype=torch.int64)]

def get_init_inputs():
    return []
