"""Scoring completions against tasks: code out of each completion, the engine on a batch (one
`evaluate_many` per task, tasks concurrently, the worker pool kept warm across calls), the analyzer
in the calling thread meanwhile, and `unified.combine` on the pair.  Shared by the TRL callables,
the plain `score` API, refinement and training episodes."""

from __future__ import annotations

import atexit
import json
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from .config import RewardBreakdown, RewardConfig
from .execution.api import Evaluator, Options
from .execution.formats import Candidate, Task, candidate_from_source, load_task, task_from_source
from .execution.result import ExecResult
from .extract import Code, extract
from .structural import (
    StructuralScore,
    Unreadable,
    floor,
    kernel_features,
    score_kernels,
    score_launches,
    score_untraced,
)
from .unified import combine

MODES = ("structural", "execution", "unified")
TASK_KINDS = {"torch2cuda": "torch", "c2cuda": "c", "torch": "torch", "c": "c"}
UNTRACED = object()     # `Scorer._at_shapes`: the task was traced, the candidate's launches could not be followed
_evaluators: dict[str, Evaluator] = {}
_lock = threading.Lock()


@lru_cache(maxsize=256)
def _task(kind: str, reference: str, harness: str | None) -> Task:
    if kind not in TASK_KINDS:
        raise ValueError(f"task kind must be one of {', '.join(TASK_KINDS)}, got {kind!r}")
    return task_from_source(reference, TASK_KINDS[kind], json.loads(harness) if harness else None)


def task_of(task: Task | Mapping[str, Any] | str | Path) -> Task:
    """A Task from a Task, a reference file, or dataset columns: `reference` (source text), `kind`
    (torch2cuda | c2cuda) and, for C tasks without an embedded one, `harness` (dict or JSON text)."""
    if isinstance(task, Task):
        return task
    if isinstance(task, str | Path):
        return load_task(task)
    missing = [c for c in ("kind", "reference") if c not in task]
    if missing:
        raise ValueError(f"a task needs {', '.join(missing)}")
    harness = task.get("harness")
    text = json.dumps(harness, sort_keys=True) if isinstance(harness, Mapping) else harness or None
    return _task(task["kind"], task["reference"], text)


def task_columns(value: Any, kind: str | None = None, harness: Any = None) -> Mapping[str, Any]:
    """A trainer's label as task columns: a mapping or JSON text with `reference` (and `kind`,
    `harness`) as is, else the reference source itself, of `kind` (default torch2cuda)."""
    if isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            pass
    if isinstance(value, Mapping):
        return value
    return {"reference": value, "kind": kind if kind in TASK_KINDS else "torch2cuda", "harness": harness}


def shared_evaluator(options: Options | None = None) -> Evaluator:
    """One warm engine per distinct Options for the whole process, closed at exit."""
    options = options or Options()
    key = repr(options)
    with _lock:
        if key not in _evaluators:
            if not _evaluators:
                atexit.register(close_shared)
            _evaluators[key] = Evaluator(options)
        return _evaluators[key]


def close_shared() -> None:
    with _lock:
        for evaluator in _evaluators.values():
            evaluator.close()
        _evaluators.clear()


def _candidate(code: Code) -> Candidate:
    return candidate_from_source(code.source, code.language, code.spec)


def _no_code(config: RewardConfig, mode: str) -> RewardBreakdown:
    reward = config.structural_floor if mode == "structural" else config.floor
    return RewardBreakdown(reward=reward, status="no_code", structural=config.structural_floor,
                           floored="no code in the completion")


class Scorer:
    """Scores batches of completions in one of MODES.  Pass an Evaluator to control the engine's
    options and lifetime; by default the process-wide shared one is used."""

    def __init__(self, config: RewardConfig | None = None, evaluator: Evaluator | None = None,
                 options: Options | None = None):
        self.config = config or RewardConfig()
        self._evaluator, self._options = evaluator, options

    @property
    def evaluator(self) -> Evaluator:
        if self._evaluator is None:
            self._evaluator = shared_evaluator(self._options)
        return self._evaluator

    def _features(self, code: Code) -> list[tuple[str, dict]] | str:
        try:
            return kernel_features(code.source, code.language, code.spec, self.config)
        except Unreadable as exc:
            return f"unreadable: {exc}"

    def score_batch(self, completions: Sequence[Any], tasks: Sequence[Any] | None = None,
                    mode: str = "unified") -> list[RewardBreakdown]:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        codes = [extract(c) for c in completions]
        if mode == "structural":
            return [self._static(code) for code in codes]
        if tasks is None or len(tasks) != len(codes):
            raise ValueError(f"{mode} scoring needs one task per completion")
        results = self._execute([task_of(t) for t in tasks], codes)
        config = self.config if mode == "unified" else replace(self.config, structural_weight=0.0)
        found = [self._features(code) if code is not None and mode == "unified" else None for code in codes]
        places = self._places(tasks, codes) if mode == "unified" and config.rank_weight else [None] * len(codes)
        shaped = self._at_shapes(tasks, codes) if mode == "unified" and config.structural_at_shapes else \
            [None] * len(codes)
        out = []
        for code, result, kernels, place, at_shapes in zip(codes, results, found, places, shaped):
            if code is None:
                out.append(_no_code(config, mode))
                continue
            result = result.result()
            if isinstance(at_shapes, StructuralScore):
                structural = at_shapes
            elif kernels is None:
                structural = floor(config, "not scored (execution reward)")
            elif isinstance(kernels, str):
                structural = floor(config, kernels)
            else:
                structural = score_kernels(kernels, config, launched=result.kernels_launched or [])
                structural = score_untraced(structural, config) if at_shapes is UNTRACED else structural
            out.append(_with_place(combine(result, structural, config), place, config))
        return out

    @staticmethod
    def _kernelbench_groups(tasks: Sequence[Any], codes: list[Code | None]) -> dict[str, list[int]]:
        """Indices of the KernelBench (Python) candidates by their task's reference source."""
        groups: dict[str, list[int]] = {}
        for i, (task, code) in enumerate(zip(tasks, codes)):
            t = task_of(task)
            if code is not None and code.language == "python" and t.kind == "torch":
                groups.setdefault(t.source, []).append(i)
        return groups

    def _places(self, tasks: Sequence[Any], codes: list[Code | None]) -> list[float | None]:
        """The static ranker's place of each KernelBench candidate within its task's group."""
        from .triage import group_places

        places: list[float | None] = [None] * len(codes)
        for reference, members in self._kernelbench_groups(tasks, codes).items():
            for i, place in zip(members, group_places(reference, [codes[i].source for i in members])):
                places[i] = place
        return places

    def _at_shapes(self, tasks: Sequence[Any], codes: list[Code | None]) -> list[StructuralScore | object | None]:
        """The structural score of each KernelBench candidate at its task's input shapes
        (`structural.score_launches`); UNTRACED where its task was traced but its own launches could not
        be followed (its file-level score then stands at parity speed, `structural.score_untraced`); None
        where the task cannot be traced or the candidate runs no kernel of its own (the file-level score
        then applies)."""
        from ..costmodel.candidates import estimate

        scores: list[StructuralScore | object | None] = [None] * len(codes)
        for reference, members in self._kernelbench_groups(tasks, codes).items():
            try:
                found = estimate(reference, [codes[i].source for i in members])
            except RuntimeError:
                continue
            for i, est in zip(members, found):
                if est.torch_only is None:
                    scores[i] = score_launches(est, self.config) if est.rankable else UNTRACED
        return scores

    def _static(self, code: Code | None) -> RewardBreakdown:
        if code is None:
            return _no_code(self.config, "structural")
        found = self._features(code)
        s = floor(self.config, found) if isinstance(found, str) else score_kernels(found, self.config)
        return RewardBreakdown(reward=s.score, status="static", structural=s.score, components=dict(s.components),
                               kernels=[k.name for k in s.kernels], floored=s.reason)

    def _execute(self, tasks: list[Task], codes: list[Code | None]) -> list:
        """Futures of ExecResults (None where there is no code): one evaluate_many per task."""
        groups: dict[str, list[int]] = {}
        for i, (task, code) in enumerate(zip(tasks, codes)):
            if code is not None:
                groups.setdefault(task.digest + str(id(task)), []).append(i)
        futures: list = [None] * len(codes)
        if not groups:
            return futures
        evaluator = self.evaluator
        evaluator.hello  # noqa: B018 -- start a worker once, before the groups race for it
        pool = ThreadPoolExecutor(max_workers=min(4, len(groups)))
        for members in groups.values():
            batch = pool.submit(evaluator.evaluate_many, tasks[members[0]], [_candidate(codes[i]) for i in members])
            for position, i in enumerate(members):
                futures[i] = _Pick(batch, position)
        pool.shutdown(wait=False)
        return futures


def _with_place(b: RewardBreakdown, place: float | None, config: RewardConfig) -> RewardBreakdown:
    """Add the ranker's group place to a correct candidate's reward (components["rank_place"])."""
    if place is None or b.reward is None or b.floored is not None or not (b.result and b.result.correct):
        return b
    return replace(b, reward=b.reward + config.rank_weight * place, components={**b.components, "rank_place": place})


class _Pick:
    """One result out of a batch future."""

    def __init__(self, batch, position: int):
        self.batch, self.position = batch, position

    def result(self) -> ExecResult:
        return self.batch.result()[self.position]


def score(task: Task | Mapping[str, Any] | str | Path, code: Any, config: RewardConfig | None = None,
          mode: str = "unified", evaluator: Evaluator | None = None) -> RewardBreakdown:
    """One candidate, for any trainer (verl, OpenRLHF, your own loop): `code` is a completion (text
    with fenced code, or chat messages) and `task` a reference path, a Task or dataset columns."""
    return Scorer(config, evaluator).score_batch([code], [task], mode)[0]
