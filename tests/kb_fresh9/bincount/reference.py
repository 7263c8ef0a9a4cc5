import torch
import torch.nn as nn

class Model(nn.Module):
    """Histogram of non-negative integer values: torch.bincount with a fixed number of bins (int64 counts)."""
    def __init__(self, bins: int):
        super().__init__()
        self.bins = bins
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.bincount(x, minlength=self.bins)

num_values = 1 << 24
bins = 1024

def get_inputs():
    return [torch.randint(0, bins, (num_values,), dtype=torch.int64)]

def get_init_inputs():
    return [bins]
