import torch
import torch.nn as nn

class Model(nn.Module):
    """Matrix multiplication with the first operand transposed: C = A^T @ B."""
    def __init__(self):
        super().__init__()
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A.T, B)

K = 4096
M = 1024
N = 2048

def get_inputs():
    A = torch.rand(K, M)
    B = torch.rand(K, N)
    return [A, B]

def get_init_inputs():
    return []
