import torch
import torch.nn as nn

class Model(nn.Module):
    """SwiGLU gate on a (tokens, 2 * hidden) tensor: silu(x[:, :hidden]) * x[:, hidden:]."""
    def __init__(self):
        super().__init__()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a, b = x.chunk(2, dim=-1)
        return torch.nn.functional.silu(a) * b

tokens = 8192
hidden = 4096

def get_inputs():
    return [torch.randn(tokens, 2 * hidden)]

def get_init_inputs():
    return []
