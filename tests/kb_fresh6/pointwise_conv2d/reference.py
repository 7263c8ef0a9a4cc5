import torch
import torch.nn as nn

class Model(nn.Module):
    """A 1x1 Conv2d (no bias): (N, C_in, H, W) -> (N, C_out, H, W)."""
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=False)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)

batch_size = 16
in_channels = 64
out_channels = 128
height = 128
width = 128

def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]

def get_init_inputs():
    return [in_channels, out_channels]
