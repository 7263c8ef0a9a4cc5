import torch
import torch.nn as nn

class Model(nn.Module):
    """A 3x3 convolution with stride 2 and padding 1 (with bias): (N, C_in, H, W) -> (N, C_out, H/2, W/2)."""
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=2, padding=1)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)

batch_size = 8
in_channels = 32
out_channels = 64
height = 128
width = 128

def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]

def get_init_inputs():
    return [in_channels, out_channels]
