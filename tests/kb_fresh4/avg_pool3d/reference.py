import torch
import torch.nn as nn

class Model(nn.Module):
    """3D average pooling (kernel 3, stride 2, padding 1; padded zeros counted in the divisor)."""
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.AvgPool3d(kernel_size=kernel_size, stride=stride, padding=padding)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)

batch_size = 8
channels = 32
depth = 64
height = 64
width = 64
kernel_size = 3
stride = 2
padding = 1

def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]

def get_init_inputs():
    return [kernel_size, stride, padding]
