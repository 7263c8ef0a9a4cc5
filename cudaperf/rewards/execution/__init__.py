"""The execution reward engine (`cudaperf eval`): static gate, compile, isolated workers, correctness
trials, timing.  Names are loaded on first use so that the worker processes, which import submodules
of this package, load only what they need (no analyzer, no tree-sitter)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {"Evaluator": "api", "Options": "api", "evaluate": "api", "ExecResult": "result",
            "render_text": "result", "STATUSES": "result", "load_task": "formats", "load_candidate": "formats",
            "task_from_source": "formats", "candidate_from_source": "formats", "Task": "formats",
            "Candidate": "formats", "FormatError": "formats"}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
