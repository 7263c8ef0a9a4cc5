import torch
import torch.nn as nn

class Model(nn.Module):
    """argmin over the middle dimension of a 3D tensor: (B, D1, D2) -> (B, D2), int64 indices."""
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmin(x, dim=self.dim)

batch_size = 128
dim1 = 1024
dim2 = 1024

def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]

def get_init_inputs():
    return [1]
