import torch
import torch.nn as nn


class Model(nn.Module):
    """Batched matrix multiplication: (b, m, k) x (b, k, n) -> (b, m, n)."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.bmm(A, B)


batch_size = 128
m = 512
k = 256
n = 512


def get_inputs():
    A = torch.rand(batch_size, m, k)
    B = torch.rand(batch_size, k, n)
    return [A, B]


def get_init_inputs():
    return []
