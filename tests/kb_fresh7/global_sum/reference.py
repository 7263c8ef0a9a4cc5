import torch
import torch.nn as nn

class Model(nn.Module):
    """The sum of every element of a (B, N) tensor, a 0-dim float32 tensor."""
    def __init__(self):
        super().__init__()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x)

batch_size = 8192
n = 16384

def get_inputs():
    return [torch.rand(batch_size, n)]   # uniform [0, 1): a sum far from 0, so rtol bounds it

def get_init_inputs():
    return []
