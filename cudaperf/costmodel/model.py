"""The offline pairwise ranker: which of two kernels doing the same work runs faster, from static
analysis alone.

`terms.describe(kernel)` reads a `cudaperf.analyze/1` kernel object into named launch totals, and
`terms.time_terms` turns those into the seconds each H200 resource would need on its own; `Ranker`
scores the log of every term with a linear model whose weights are all <= 0, and for two kernels
P(a faster) = sigmoid(score(a) - score(b)), so prefer(a, b) = 1 - prefer(b, a).  The default model
is a small JSON of coefficients in package data: inference needs numpy only.  Training
(`rl.rank_train`, scipy) uses pairs of implementations of the same task and configuration whose
measured times differ by at least 10%; evaluation holds out whole task families."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from .terms import describe, log_terms, time_terms

SCHEMA = "cudaperf.ranker/1"


def _has_kernels(code: str, reason: str | None) -> bool:
    """Whether an unreadable candidate is still a candidate (it defines kernels, its Python parses)."""
    if reason is None or reason.startswith(("python does not parse", "no CUDA", "no class ModelNew")) or \
            "Error building extension" in reason:
        return False
    return "__global__" in code


def placed_after(estimated: int) -> int:
    """How many of a task's `estimated` candidates come before one whose run could not be followed: the
    first half, rounded up, so that it sits at the middle (a guess no better than a coin toss)."""
    return (estimated + 1) // 2


class Ranker:
    """A linear pairwise model: score = (vector / scale) . weights, P(a faster) = sigmoid(score(a) -
    score(b)).  Only differences of vectors of two kernels matter, so there is no offset."""

    def __init__(self, model: dict):
        if model.get("schema") != SCHEMA:
            raise ValueError(f"not a {SCHEMA} model")
        self.model = model
        self.names: list[str] = model["features"]
        self.scale = np.asarray(model["scale"], dtype=float)
        self.weights = np.asarray(model["weights"], dtype=float)

    @classmethod
    def default(cls) -> Ranker:
        """The model trained on the committed H200 measurements (package data)."""
        return cls(json.loads(resources.files("cudaperf.costmodel").joinpath("data/ranker.json").read_text()))

    @classmethod
    def load(cls, path: str | Path) -> Ranker:
        return cls(json.loads(Path(path).read_text()))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.model, indent=1) + "\n")

    def inputs(self, described: dict[str, float]) -> np.ndarray:
        return self.inputs_of_terms(time_terms(described))

    def inputs_of_terms(self, terms: dict[str, float]) -> np.ndarray:
        v = log_terms(terms)
        return np.array([v[n] for n in self.names]) / self.scale

    def score_terms(self, terms: dict[str, float]) -> float:
        """Higher is faster, for summed terms (a candidate's, `candidates.Estimate.terms`)."""
        return float(self.inputs_of_terms(terms) @ self.weights)

    def speedup(self, terms: dict[str, float], reference_terms: dict[str, float]) -> float:
        """The model's estimated speed-up of a whole candidate over its reference (both as summed terms): the
        score margin read in doublings of time, the score moving by minus the weights' sum (over their
        scales) when every term doubles (the inputs are log2 microseconds)."""
        per_doubling = -float(np.sum(self.weights / self.scale))
        return 2.0 ** ((self.score_terms(terms) - self.score_terms(reference_terms)) / per_doubling)

    def score(self, kernel: Any) -> float:
        """Higher is faster: minus the model's log-time-like estimate for one kernel."""
        return self.score_described(describe(kernel))

    def score_described(self, described: dict[str, float]) -> float:
        return float(self.inputs(described) @ self.weights)

    def prefer(self, a: Any, b: Any) -> float:
        """P(a runs faster than b), for two kernels doing the same work."""
        return 1.0 / (1.0 + math.exp(-(self.score(a) - self.score(b))))

    def rank_candidates(self, task: Any, codes: Sequence[str], labels: Sequence[str] | None = None,
                        sizes: dict | None = None) -> list[dict]:
        """Whole KernelBench candidates (Python modules with load_inline extensions), fastest
        first, each scored on the summed terms of everything it launches at the task's input shapes
        (`candidates.estimate`; `task`: a reference path, its source or a Task); one that runs no
        kernel of its own (a torch rewrite, the fallback of an extension that cannot build) on its
        torch operators' terms, `torch_only` saying why.  A candidate whose kernels exist but whose run
        could not be followed at all is placed at the middle of the others (`placed`: "median", no
        score), with its reason; those that are not candidates (Python that does not parse, no
        ModelNew, an extension that cannot build and nothing else that runs) come last.
        `p_faster_than_next` is calibrated (`p_faster`).  Raises ValueError when the reference cannot be traced."""
        from .candidates import estimate, task_reference

        labels = list(labels) if labels is not None else [f"candidate {i}" for i in range(len(codes))]
        try:
            estimates = estimate(task_reference(task), list(codes), sizes, labels)
        except RuntimeError as exc:
            raise ValueError(str(exc)) from None
        scores = {i: self.score_terms(e.terms) for i, e in enumerate(estimates) if e.rankable}
        ranked = sorted(scores, key=lambda i: -scores[i])
        placed = [i for i, e in enumerate(estimates) if not e.rankable and _has_kernels(codes[i], e.reason)]
        middle = placed_after(len(ranked))
        ranked = ranked[:middle] + placed + ranked[middle:]
        ranked += [i for i, e in enumerate(estimates) if not e.rankable and i not in placed]
        rows = []
        for place, i in enumerate(ranked):
            nxt = ranked[place + 1] if place + 1 < len(ranked) and ranked[place + 1] in scores else None
            p_next = None
            if i in scores and nxt is not None:
                p_next = self.p_faster(scores[i] - scores[nxt], estimates[i].guess or estimates[nxt].guess)
            rows.append({"rank": place + 1, "index": i, "label": labels[i], "score": scores.get(i),
                         "p_faster_than_next": p_next, "placed": "median" if i in placed else None,
                         **estimates[i].to_json()})
        return rows

    def p_faster(self, margin: float, guess: bool = False) -> float:
        """P(faster) for a score margin (score(a) - score(b)) between two whole candidates, calibrated:
        the logistic slope fitted on held-out pairs (`calibration` in the model: `slope`, and
        `guess_slope` where either estimate rests on a guess); the raw sigmoid without one."""
        cal = self.model.get("calibration") or {}
        slope = cal.get("guess_slope" if guess else "slope", 1.0)
        return 1.0 / (1.0 + math.exp(-slope * margin))

    def order(self, kernels: Sequence[Any]) -> list[int]:
        """Indices of `kernels`, predicted fastest first."""
        scores = [self.score(k) for k in kernels]
        return sorted(range(len(kernels)), key=lambda i: -scores[i])
