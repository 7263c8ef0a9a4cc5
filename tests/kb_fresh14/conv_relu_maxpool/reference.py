import torch
import torch.nn as nn

class Model(nn.Module):
    """3x3 convolution (padding 1, with bias), ReLU, then 2x2 max pooling with stride 2:
    (batch, 16, 128, 128) float32 -> (batch, 32, 64, 64)."""
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(torch.relu(self.conv(x)))

batch = 32
in_channels = 16
out_channels = 32
height = 128
width = 128

def get_inputs():
    return [torch.randn(batch, in_channels, height, width)]

def get_init_inputs():
    return [in_channels, out_channels]
