import torch
import torch.nn as nn

class Model(nn.Module):
    """Batched outer product: a (B, M) and b (B, N) give (B, M, N) with out[b, i, j] = a[b, i] * b[b, j]."""
    def __init__(self):
        super().__init__()
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return a.unsqueeze(2) * b.unsqueeze(1)

batch_size = 64
M = 1024
N = 1024

def get_inputs():
    return [torch.randn(batch_size, M), torch.randn(batch_size, N)]

def get_init_inputs():
    return []
