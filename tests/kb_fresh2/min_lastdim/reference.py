import torch
import torch.nn as nn


class Model(nn.Module):
    """Minimum reduction over one dimension (values only)."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.min(x, dim=self.dim)[0]


batch_size = 64
dim1 = 1024
dim2 = 1024


def get_inputs():
    return [torch.rand(batch_size, dim1, dim2)]


def get_init_inputs():
    return [2]
