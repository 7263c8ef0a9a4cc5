import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix multiplication of a tall-skinny (M x K) matrix by a wide (K x N) matrix, K small."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 8192
K = 32
N = 8192


def get_inputs():
    A = torch.rand(M, K)
    B = torch.rand(K, N)
    return [A, B]


def get_init_inputs():
    return []
