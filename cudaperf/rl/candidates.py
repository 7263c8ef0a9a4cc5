"""A whole KernelBench candidate's static estimate, as `cudaperf.rl.candidates` has always offered it:
it lives in `cudaperf.costmodel.candidates` and `torch_ops` (below both rewards and rl), re-exported here."""

from __future__ import annotations

from ..costmodel.candidates import Estimate, KernelLaunch, estimate, estimate_traced, task_reference
from ..costmodel.torch_ops import TORCH, op_terms

__all__ = ["TORCH", "Estimate", "KernelLaunch", "estimate", "estimate_traced", "op_terms", "task_reference"]
