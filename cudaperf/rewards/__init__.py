"""Rewards for CUDA candidates: `execution` (compile, verify and time safely), the structural and
unified rewards, TRL reward functions and the plain `score` API (docs/rewards.md).

Importing this package imports neither torch, TRL nor CuPy, nor the analyzer: names load on first use."""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {"structural_reward": "trl", "execution_reward": "trl", "unified_reward": "trl", "make_reward": "trl",
            "score": "scoring", "Scorer": "scoring", "RewardConfig": "config", "RewardBreakdown": "config",
            "PRESETS": "config", "preset": "config", "extract": "extract", "Code": "extract"}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
