import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """GELU followed by a scale."""

    def __init__(self, scale_factor: float):
        super(Model, self).__init__()
        self.scale_factor = scale_factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(x) * self.scale_factor


batch_size = 128
dim = 4096
scale_factor = 2.0


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [scale_factor]
