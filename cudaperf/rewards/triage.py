"""Static triage of a GRPO group: the ranker orders a group's KernelBench candidates at the task's
input shapes (`Ranker.rank_candidates`, no GPU), so that

- the unified reward can add the predicted place in the group (`RewardConfig.rank_weight`), and
- a batch can time only the `top_k` candidates predicted fastest plus the uncertain ones (those
  the model gives at least `uncertain_p` chance of beating the k-th), checking the rest for
  correctness only: `evaluator.evaluate_many(tasks, candidates, untimed=untimed(tasks, candidates,
  top_k))`.  The GPU seconds saved are reported by `benchmarks/bench_triage.py`.  The engine only
  takes the indices: deciding them needs the cost model, which sits above the engine.

Candidates the ranker cannot read, or could not trace and only guessed, are always timed."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .execution.formats import Candidate, Task

DEFAULT_UNCERTAIN_P = 0.25


def _ranked(reference: str, codes: Sequence[str]) -> list[dict]:
    from ..costmodel.model import Ranker

    try:
        return Ranker.default().rank_candidates(reference, list(codes))
    except ValueError:      # the reference cannot be traced: no ordering
        return []


def group_places(reference: str, codes: Sequence[str]) -> list[float | None]:
    """Per candidate, its predicted place in the group as a value in [0, 1] (1: predicted fastest,
    0: slowest); None for candidates the ranker cannot read."""
    rows = [r for r in _ranked(reference, codes) if r["score"] is not None]
    places: list[float | None] = [None] * len(codes)
    for position, r in enumerate(rows):
        places[r["index"]] = 1.0 - position / (len(rows) - 1) if len(rows) > 1 else 1.0
    return places


def timed(reference: str, codes: Sequence[str], top_k: int, uncertain_p: float = DEFAULT_UNCERTAIN_P) -> set[int]:
    """Indices of the candidates worth timing (`select` on the ranker's scores)."""
    rows = _ranked(reference, codes)
    if not rows:
        return set(range(len(codes)))
    scores: list[float | None] = [None] * len(codes)
    for r in rows:     # one that was not traced (a guessed call, a partial trace) is always timed
        scores[r["index"]] = None if r.get("note") else r["score"]
    return select(scores, top_k, uncertain_p)


def untimed(tasks: Sequence[Task], candidates: Sequence[Candidate], top_k: int,
            uncertain_p: float = DEFAULT_UNCERTAIN_P) -> set[int]:
    """The indices of a batch's KernelBench candidates left untimed: per task's group (candidates
    of one task object), those `timed` does not keep."""
    groups: dict[int, list[int]] = {}
    for i, (task, cand) in enumerate(zip(tasks, candidates)):
        if task.kind == "torch" and cand.kind == "python":
            groups.setdefault(id(task), []).append(i)
    left: set[int] = set()
    for members in groups.values():
        if len(members) > 1:
            keep = timed(tasks[members[0]].source, [candidates[i].source for i in members], top_k, uncertain_p)
            left |= {members[j] for j in range(len(members)) if j not in keep}
    return left


def select(scores: Sequence[float | None], top_k: int, uncertain_p: float = DEFAULT_UNCERTAIN_P) -> set[int]:
    """The top_k highest scores, every candidate whose chance of beating the k-th (sigmoid of the
    score difference) is at least `uncertain_p`, and every candidate without a score."""
    scored = sorted((i for i, s in enumerate(scores) if s is not None), key=lambda i: -scores[i])
    if len(scored) <= top_k:
        return set(range(len(scores)))
    kth = scores[scored[top_k - 1]]
    keep = set(scored[:top_k]) | {i for i, s in enumerate(scores) if s is None}
    keep |= {i for i in scored[top_k:] if 1.0 / (1.0 + math.exp(kth - scores[i])) >= uncertain_p}
    return keep
