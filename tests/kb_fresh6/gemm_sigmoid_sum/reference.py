import torch
import torch.nn as nn

class Model(nn.Module):
    """Linear (with bias), sigmoid, then the sum over features: (B, in) -> (B, 1)."""
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.linear(x)).sum(dim=1, keepdim=True)

batch_size = 1024
in_features = 2048
out_features = 4096

def get_inputs():
    return [torch.randn(batch_size, in_features)]

def get_init_inputs():
    return [in_features, out_features]
