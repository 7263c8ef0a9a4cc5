import torch
import torch.nn as nn

class Model(nn.Module):
    """Product over the middle dimension of a 3D tensor: (B, D1, D2) -> (B, D2).  Inputs near 1 keep it finite."""
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.prod(x, dim=self.dim)

batch_size = 64
dim1 = 256
dim2 = 8192

def get_inputs():
    return [1.0 + 0.01 * torch.randn(batch_size, dim1, dim2)]

def get_init_inputs():
    return [1]
