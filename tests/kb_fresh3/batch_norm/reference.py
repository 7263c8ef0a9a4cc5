import torch
import torch.nn as nn

class Model(nn.Module):
    """Batch normalisation of a 4D tensor in training mode (batch statistics over N, H, W per channel)."""
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(x)

batch_size = 64
features = 64
dim1 = 128
dim2 = 128

def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]

def get_init_inputs():
    return [features]
