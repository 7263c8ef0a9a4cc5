import torch
import torch.nn as nn

class Model(nn.Module):
    """A transposed 2-D convolution, kernel 4, stride 2, padding 1, with bias: (B, 32, H, W) -> (B, 16, 2H, 2W)."""
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.conv_t = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv_t(x)

batch_size = 16
in_channels = 32
out_channels = 16
height = 64
width = 64

def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]

def get_init_inputs():
    return [in_channels, out_channels, 4, 2, 1]
