import torch
import torch.nn as nn

class Model(nn.Module):
    """A 5x5 convolution (stride 1, padding 2, with bias) then ReLU: (B, 16, H, W) -> (B, 32, H, W)."""
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.conv(x))

batch_size = 16
in_channels = 16
out_channels = 32
kernel_size = 5
height = 128
width = 128

def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]

def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
