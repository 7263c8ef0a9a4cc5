import torch
import torch.nn as nn

class Model(nn.Module):
    """Exclusive prefix sum along dim 1 of a (B, N) tensor: out[:, 0] = 0, out[:, j] = sum of x[:, :j]."""
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        exclusive = torch.cat((torch.zeros_like(x.select(self.dim, 0).unsqueeze(self.dim)), x), dim=self.dim)[:, :-1]
        return torch.cumsum(exclusive, dim=self.dim)

batch_size = 256
n = 32768
dim = 1

def get_inputs():
    return [torch.rand(batch_size, n)]   # uniform [0, 1): running sums grow, so rtol bounds them

def get_init_inputs():
    return [dim]
