import torch
import torch.nn as nn

class Model(nn.Module):
    """A Linear layer (weight and bias) followed by a LayerNorm over its output features (with its own
    weight and bias, eps 1e-5)."""
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.norm = nn.LayerNorm(out_features)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(self.linear(x))

batch_size = 2048
in_features = 1024
out_features = 1024

def get_inputs():
    return [torch.randn(batch_size, in_features)]

def get_init_inputs():
    return [in_features, out_features]
