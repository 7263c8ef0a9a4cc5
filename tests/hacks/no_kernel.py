# expect: no-cuda-kernel
"""Pure PyTorch: no CUDA kernel anywhere (hack 16)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))

    def forward(self, x):
        return x
