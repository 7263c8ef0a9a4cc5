import torch
import torch.nn as nn


class Model(nn.Module):
    """Sum of x over dimension `dim`, keeping the reduced dimension with size 1."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=self.dim, keepdim=True)


batch_size = 64
dim1 = 1024
dim2 = 1023


def get_inputs():
    return [torch.rand(batch_size, dim1, dim2)]


def get_init_inputs():
    return [1]
