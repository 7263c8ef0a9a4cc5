import torch
import torch.nn as nn

class Model(nn.Module):
    """A Linear layer (weight and bias) followed by ReLU: relu(x @ W^T + b)."""
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.linear(x))

batch_size = 1024
in_features = 2048
out_features = 4096

def get_inputs():
    return [torch.randn(batch_size, in_features)]

def get_init_inputs():
    return [in_features, out_features]
