import torch
import torch.nn as nn

class Model(nn.Module):
    """1-D average pooling: nn.AvgPool1d(kernel_size=8, stride=2, padding=3) over (batch, channels, length)
    float32 (padding counted in the average, the default)."""
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.AvgPool1d(kernel_size=kernel_size, stride=stride, padding=padding)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)

batch_size = 32
channels = 64
length = 32768
kernel_size = 8
stride = 2
padding = 3

def get_inputs():
    return [torch.randn(batch_size, channels, length)]

def get_init_inputs():
    return [kernel_size, stride, padding]
