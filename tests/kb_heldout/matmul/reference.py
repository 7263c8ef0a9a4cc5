import torch
import torch.nn as nn


class Model(nn.Module):
    """Simple model that performs a single square matrix multiplication (C = A * B)."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 512
K = 256
N = 384


def get_inputs():
    A = torch.randn(M, K)
    B = torch.randn(K, N)
    return [A, B]


def get_init_inputs():
    return []
