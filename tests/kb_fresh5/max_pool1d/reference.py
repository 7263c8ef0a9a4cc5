import torch
import torch.nn as nn

class Model(nn.Module):
    """1-D max pooling (kernel 4, stride 2, padding 1) over the last dimension of an (N, C, L) tensor."""
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.MaxPool1d(kernel_size=kernel_size, stride=stride, padding=padding)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)

batch_size = 64
channels = 128
length = 16384

def get_inputs():
    return [torch.randn(batch_size, channels, length)]

def get_init_inputs():
    return [4, 2, 1]
