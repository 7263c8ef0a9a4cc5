"""Reference for the hostile suite: out = alpha * a + b over 4M floats (KernelBench format).

Elementwise and memory-bound, big enough to time (16 MB per tensor), with an output that varies
everywhere, so zeros, constants and stale outputs all fail a real comparison."""
import torch
import torch.nn as nn

N = 1 << 22


class Model(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return a * self.alpha + b


def get_inputs():
    return [torch.randn(N), torch.randn(N)]


def get_init_inputs():
    return [1.5]
