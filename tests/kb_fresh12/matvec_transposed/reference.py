import torch
import torch.nn as nn

class Model(nn.Module):
    """Transposed matrix-vector product: y = A^T @ x for A of shape (M, N) float32 (row-major) and x of
    shape (M,), y of shape (N,)."""
    def __init__(self):
        super().__init__()
    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return A.t() @ x

M = 16384
N = 8192

def get_inputs():
    return [torch.randn(M, N), torch.randn(M)]

def get_init_inputs():
    return []
