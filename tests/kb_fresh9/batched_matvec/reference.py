import torch
import torch.nn as nn

class Model(nn.Module):
    """A batch of matrix-vector products: (B, M, K) x (B, K) -> (B, M)."""
    def __init__(self):
        super().__init__()
    def forward(self, a: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return torch.bmm(a, v.unsqueeze(-1)).squeeze(-1)

batch_size = 64
rows = 1024
cols = 1024

def get_inputs():
    return [torch.randn(batch_size, rows, cols), torch.randn(batch_size, cols)]

def get_init_inputs():
    return []
