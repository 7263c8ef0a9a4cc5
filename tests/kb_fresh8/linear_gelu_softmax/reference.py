import torch
import torch.nn as nn

class Model(nn.Module):
    """Linear (with bias), exact GELU, then softmax over features: (B, in) -> (B, out)."""
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(torch.nn.functional.gelu(self.linear(x)), dim=1)

batch_size = 512
in_features = 1024
out_features = 2048

def get_inputs():
    return [torch.randn(batch_size, in_features)]

def get_init_inputs():
    return [in_features, out_features]
