import torch
import torch.nn as nn

class Model(nn.Module):
    """A short-and-wide matrix product: (M, K) @ (K, N) with M = 32 rows, float32 (a batch of activations
    times a weight matrix)."""
    def __init__(self):
        super().__init__()
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)

M = 32
K = 4096
N = 8192

def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]

def get_init_inputs():
    return []
