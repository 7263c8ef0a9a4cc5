import torch
import torch.nn as nn

class Model(nn.Module):
    """Hinge loss: mean(clamp(1 - predictions * targets, min=0)) over all elements, targets in {-1, 1}."""
    def __init__(self):
        super().__init__()
    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.mean(torch.clamp(1 - predictions * targets, min=0))

batch_size = 16384
dim = 4096

def get_inputs():
    return [torch.randn(batch_size, dim), torch.randint(0, 2, (batch_size, dim)).float() * 2 - 1]

def get_init_inputs():
    return []
