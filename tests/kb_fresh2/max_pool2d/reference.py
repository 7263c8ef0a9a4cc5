import torch
import torch.nn as nn

class Model(nn.Module):
    """2D max pooling over the spatial dims of an NCHW tensor (padding counts as -inf)."""
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.max_pool2d(x, self.kernel_size, self.stride, self.padding)

batch_size = 32
channels = 64
height = 256
width = 256

def get_inputs():
    return [torch.rand(batch_size, channels, height, width)]

def get_init_inputs():
    return [3, 2, 1]
