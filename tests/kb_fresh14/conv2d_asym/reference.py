import torch
import torch.nn as nn

class Model(nn.Module):
    """2-D convolution with an asymmetric 3x7 kernel, stride 1, padding (1, 3), no bias:
    (batch, 32, 128, 128) float32 -> (batch, 64, 128, 128)."""
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, (3, 7), padding=(1, 3), bias=False)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)

batch = 8
in_channels = 32
out_channels = 64
height = 128
width = 128

def get_inputs():
    return [torch.randn(batch, in_channels, height, width)]

def get_init_inputs():
    return [in_channels, out_channels]
