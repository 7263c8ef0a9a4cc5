import torch
import torch.nn as nn

class Model(nn.Module):
    """ConvTranspose1d (no bias): (N, C_in, L) -> (N, C_out, (L - 1) * stride - 2 * padding + kernel_size)."""
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.conv = nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                                       bias=False)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)

batch_size = 32
in_channels = 64
out_channels = 32
kernel_size = 5
stride = 2
padding = 1
length = 8192

def get_inputs():
    return [torch.randn(batch_size, in_channels, length)]

def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding]
