import torch
import torch.nn as nn

class Model(nn.Module):
    """2-D average pooling, kernel 3, stride 2, padding 1 (zero padding counted in the divisor, PyTorch's default
    count_include_pad=True): (B, C, H, W) -> (B, C, H/2, W/2)."""
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size=kernel_size, stride=stride, padding=padding)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)

batch_size = 16
channels = 64
height = 256
width = 256

def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]

def get_init_inputs():
    return [3, 2, 1]
