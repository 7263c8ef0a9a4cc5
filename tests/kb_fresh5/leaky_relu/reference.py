import torch
import torch.nn as nn

class Model(nn.Module):
    """LeakyReLU with a negative slope given at construction, elementwise over a large tensor."""
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.leaky_relu(x, negative_slope=self.negative_slope)

batch_size = 4096
dim = 16384

def get_inputs():
    return [torch.randn(batch_size, dim)]

def get_init_inputs():
    return [0.01]
