import torch
import torch.nn as nn

class Model(nn.Module):
    """A 3x3x3 convolution (stride 1, padding 1, no bias): (B, 16, D, H, W) -> (B, 32, D, H, W)."""
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=kernel_size // 2, bias=False)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)

batch_size = 4
in_channels = 16
out_channels = 32
kernel_size = 3
depth = 32
height = 64
width = 64

def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width)]

def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
