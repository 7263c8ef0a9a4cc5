import torch
import torch.nn as nn

class Model(nn.Module):
    """A 3x3 convolution with dilation 2 and padding 2 (with bias), same spatial size:
    (N, C_in, H, W) -> (N, C_out, H, W)."""
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=2, dilation=2)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)

batch_size = 8
in_channels = 32
out_channels = 32
height = 96
width = 96

def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]

def get_init_inputs():
    return [in_channels, out_channels]
