import torch
import torch.nn as nn

class Model(nn.Module):
    """Group normalisation of a 4D tensor (statistics over each group's channels x H x W, per sample)."""
    def __init__(self, num_features: int, num_groups: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups=num_groups, num_channels=num_features)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(x)

batch_size = 32
features = 64
num_groups = 8
dim1 = 128
dim2 = 128

def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]

def get_init_inputs():
    return [features, num_groups]
