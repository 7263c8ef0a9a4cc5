import torch
import torch.nn as nn

class Model(nn.Module):
    """Standard 2D convolution (stride 1, 'same' zero padding, no bias)."""
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2, bias=False)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)

batch_size = 16
in_channels = 32
out_channels = 64
height = 256
width = 256
kernel_size = 3

def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]

def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
