import torch
import torch.nn as nn

class Model(nn.Module):
    """C = A @ B^T for A (M, K) and B (N, K), float32."""
    def __init__(self):
        super().__init__()
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B.T)

M = 2048
N = 2048
K = 1024

def get_inputs():
    return [torch.randn(M, K), torch.randn(N, K)]

def get_init_inputs():
    return []
