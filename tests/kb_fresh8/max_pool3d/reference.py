import torch
import torch.nn as nn

class Model(nn.Module):
    """3-D max pooling, kernel 3, stride 2, padding 1: (B, C, D, H, W) -> (B, C, D/2, H/2, W/2)."""
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.MaxPool3d(kernel_size=kernel_size, stride=stride, padding=padding)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)

batch_size = 8
channels = 16
depth = 64
height = 64
width = 64

def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]

def get_init_inputs():
    return [3, 2, 1]
