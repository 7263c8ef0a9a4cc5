"""A whole KernelBench candidate's static estimate, as `cudaperf.rl.candidates` has always offered it:
it lives in `cudaperf.costmodel.candidates` (below both rewards and rl), re-exported here."""

from __future__ import annotations

from ..costmodel.candidates import TORCH, Estimate, KernelLaunch, estimate, estimate_traced, op_terms, task_reference

__all__ = ["TORCH", "Estimate", "KernelLaunch", "estimate", "estimate_traced", "op_terms", "task_reference"]
