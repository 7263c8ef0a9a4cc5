import torch
import torch.nn as nn

class Model(nn.Module):
    """Rotary position embedding (rotate-half form) of a (batch, heads, seq, head_dim) tensor, given the
    (seq, head_dim / 2) cosine and sine tables."""
    def __init__(self):
        super().__init__()
    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        half = x.shape[-1] // 2
        x1, x2 = x[..., :half], x[..., half:]
        return torch.cat((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)

batch_size = 8
heads = 32
seq_len = 1024
head_dim = 128

def get_inputs():
    x = torch.randn(batch_size, heads, seq_len, head_dim)
    pos = torch.arange(seq_len, dtype=torch.float32)[:, None]
    inv = 1.0 / (10000 ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
    angles = pos * inv[None, :]
    return [x, torch.cos(angles), torch.sin(angles)]

def get_init_inputs():
    return []
