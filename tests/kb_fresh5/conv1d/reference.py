import torch
import torch.nn as nn

class Model(nn.Module):
    """Conv1d (in 64, out 128 channels, kernel 5, stride 1, padding 2, with bias) of an (N, 64, L) tensor."""
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, stride=1, padding=kernel_size // 2, bias=True)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)

batch_size = 32
in_channels = 64
out_channels = 128
kernel_size = 5
length = 8192

def get_inputs():
    return [torch.randn(batch_size, in_channels, length)]

def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
