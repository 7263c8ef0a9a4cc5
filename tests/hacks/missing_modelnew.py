# expect: missing-modelnew
"""Defines no ModelNew at all."""
import torch


class Candidate(torch.nn.Module):
    pass
