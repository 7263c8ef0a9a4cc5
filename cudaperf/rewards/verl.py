"""Reward functions in verl's shapes (`custom_reward_function` in verl's config):

- `compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs)`: one response,
  as verl's naive reward manager calls it;
- `compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos, **kwargs)`: the whole
  batch at once, as verl's batch reward manager calls it (`reward_model.reward_manager=batch`); use
  this one, since the engine compiles and runs a batch concurrently.

The task is `ground_truth`: the reference source (its kind from `extra_info["kind"]`, else the last
`/` part of `data_source`, else torch2cuda; a C harness from `extra_info["harness"]`), or a mapping
or JSON text with the `reference`, `kind`, `harness` columns.  Each score is a dict: `score` (the
reward; 0.0 where the reward is not measurable, e.g. no GPU, with `measured` 0.0), and numeric
extras verl logs per sample.  `reward_kwargs` in verl's config reach `**kwargs`: `mode`
(structural | execution | unified, default unified).  Nothing here imports verl."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .config import RewardBreakdown, RewardConfig
from .execution.api import Evaluator
from .scoring import Scorer, task_columns


def _score(breakdown: RewardBreakdown) -> dict[str, float]:
    return {"score": breakdown.reward if breakdown.reward is not None else 0.0,
            "measured": float(breakdown.reward is not None), "correct": float(breakdown.status == "correct"),
            "structural": breakdown.structural}


def _kind(data_source: str, extra_info: dict | None) -> str | None:
    return (extra_info or {}).get("kind") or str(data_source).rsplit("/", 1)[-1]


def make_compute_score(config: RewardConfig | None = None, evaluator: Evaluator | None = None):
    """(compute_score, compute_score_batch) scored under `config` by `evaluator` (default: the
    process-wide shared engine; `Evaluator(backend="ray", address="auto")` to use the cluster verl
    already runs on)."""
    scorer = Scorer(config, evaluator)

    def compute_score_batch(data_sources: Sequence[str], solution_strs: Sequence[str], ground_truths: Sequence[Any],
                            extra_infos: Sequence[dict | None] | None = None, mode: str = "unified",
                            **kwargs: Any) -> list[dict[str, float]]:
        extras = list(extra_infos) if extra_infos is not None else [None] * len(solution_strs)
        tasks = [task_columns(truth, _kind(source, extra), (extra or {}).get("harness"))
                 for source, truth, extra in zip(data_sources, ground_truths, extras)]
        return [_score(b) for b in scorer.score_batch(list(solution_strs), tasks, mode)]

    def compute_score(data_source: str, solution_str: str, ground_truth: Any, extra_info: dict | None = None,
                      mode: str = "unified", **kwargs: Any) -> dict[str, float]:
        return compute_score_batch([data_source], [solution_str], [ground_truth], [extra_info], mode)[0]

    return compute_score, compute_score_batch


compute_score, compute_score_batch = make_compute_score()
