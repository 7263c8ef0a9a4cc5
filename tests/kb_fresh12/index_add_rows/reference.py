import torch
import torch.nn as nn

class Model(nn.Module):
    """Scatter-add of rows: out = zeros(num_out, dim); out.index_add_(0, index, src), src (n, dim) float32,
    index (n,) int64 in [0, num_out) with repeats."""
    def __init__(self, num_out: int):
        super().__init__()
        self.num_out = num_out
    def forward(self, src: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        out = torch.zeros(self.num_out, src.shape[1], dtype=src.dtype, device=src.device)
        return out.index_add_(0, index, src)

n = 262144
dim = 256
num_out = 4096

def get_inputs():
    return [torch.randn(n, dim), torch.randint(0, num_out, (n,), dtype=torch.int64)]

def get_init_inputs():
    return [num_out]
