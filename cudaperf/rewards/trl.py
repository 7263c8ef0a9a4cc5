"""Reward functions with TRL's signature, `f(prompts, completions, completion_ids=None, **kwargs) ->
list[float | None]`, for GRPOTrainer or any trainer that calls rewards the same way.

The task comes from the dataset's columns, which TRL passes as keyword arguments: `reference`
(source text), `kind` (torch2cuda | c2cuda) and optionally `harness`.  Components and statuses are
logged through TRL's `log_metric` and `log_extra` when given.  Nothing here imports TRL."""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from .config import STRUCTURAL_COMPONENTS, RewardBreakdown, RewardConfig
from .execution.api import Evaluator, Options
from .scoring import MODES, Scorer

RewardFunc = Callable[..., list[float | None]]


def _tasks(kwargs: dict[str, Any], n: int) -> list[dict[str, Any]]:
    missing = [c for c in ("reference", "kind") if c not in kwargs]
    if missing:
        raise ValueError(f"the dataset needs the column(s) {', '.join(missing)} (reference source text, and kind "
                         f"torch2cuda or c2cuda) for execution rewards")
    harness = kwargs.get("harness") or [None] * n
    return [{"reference": r, "kind": k, "harness": h} for r, k, h in zip(kwargs["reference"], kwargs["kind"], harness)]


def summary(breakdowns: Sequence[RewardBreakdown]) -> dict[str, float]:
    """Batch means of the structural components, the share of each status and of floored rewards."""
    n = max(1, len(breakdowns))
    out: dict[str, float] = {}
    for c in (*STRUCTURAL_COMPONENTS, "hygiene"):
        values = [b.components[c] for b in breakdowns if b.components.get(c) is not None]
        if values:
            out[c] = sum(values) / len(values)
    out["structural"] = sum(b.structural for b in breakdowns) / n
    out.update({f"status/{s}": count / n for s, count in Counter(b.status for b in breakdowns).items()})
    out["floored"] = sum(b.floored is not None for b in breakdowns) / n
    speedups = [b.speedup for b in breakdowns if b.status == "correct" and b.speedup is not None]
    if speedups:
        out["speedup"] = sum(speedups) / len(speedups)
    return out


def unmeasured(name: str, breakdowns: Sequence[RewardBreakdown]) -> str:
    """Why a whole batch got None: a trainer then sees no reward at all (TRL trains with loss 0)."""
    statuses = Counter(b.status for b in breakdowns)
    reasons = list(dict.fromkeys(b.reason for b in breakdowns if b.reason))[:2]
    counted = ", ".join(f"{s} {n}" for s, n in statuses.items())
    return (f"cudaperf {name}: every completion of the batch got None ({counted}"
            + (f": {'; '.join(reasons)}" if reasons else "") + "), so the trainer learns nothing from it (TRL trains "
            "with loss 0).  Execution rewards need an NVIDIA GPU the engine can use; on a machine without one, "
            "train with structural_reward (cudaperf train --reward structural).  Said once per reward function.")


def _log(name: str, breakdowns: Sequence[RewardBreakdown], kwargs: dict[str, Any]) -> None:
    log_metric, log_extra = kwargs.get("log_metric"), kwargs.get("log_extra")
    if callable(log_metric):
        for key, value in summary(breakdowns).items():
            log_metric(f"{name}/{key}", value)
    if callable(log_extra):
        log_extra(f"{name}_status", [b.status for b in breakdowns])


def make_reward(mode: str, config: RewardConfig | None = None, evaluator: Evaluator | None = None,
                options: Options | None = None) -> RewardFunc:
    """A TRL reward function for `mode` (structural | execution | unified) under `config`; the engine
    is `evaluator`, else a process-wide one built from `options` on first use."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    scorer = Scorer(config, evaluator, options)
    name = f"{mode}_reward"
    warned = False

    def reward(prompts: Sequence[Any], completions: Sequence[Any], completion_ids: Sequence[Any] | None = None,
               **kwargs: Any) -> list[float | None]:
        nonlocal warned
        tasks = None if mode == "structural" else _tasks(kwargs, len(completions))
        breakdowns = scorer.score_batch(completions, tasks, mode)
        _log(name, breakdowns, kwargs)
        if not warned and breakdowns and all(b.reward is None for b in breakdowns):
            warned = True
            warnings.warn(unmeasured(name, breakdowns), RuntimeWarning, stacklevel=2)
        return [b.reward for b in breakdowns]

    reward.__name__ = reward.__qualname__ = name  # TRL names the logged reward column after it
    reward.__doc__ = f"cudaperf {mode} reward (TRL signature); see docs/rewards.md."
    return reward


structural_reward = make_reward("structural")
execution_reward = make_reward("execution")
unified_reward = make_reward("unified")
