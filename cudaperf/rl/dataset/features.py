"""The analyzer's view of every implementation under every configuration: the launch a
configuration implies (its launch spec evaluated on placeholder tensors of the right shapes), the
analysis under that launch, and `ranking.describe` of the result, one JSON line per (task,
implementation, configuration).  This is what the committed features file holds and what the
ranker trains on, so it is computed exactly as `cudaperf analyze` would (ptxas for registers)."""

from __future__ import annotations

import gzip
import json
import multiprocessing
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ...costmodel.terms import describe
from ...rewards.execution import harness, spec
from .emulate import parameters
from .generate import all_tasks
from .kit import DTYPES, Implementation, Task, init_sizes, resolve


@dataclass(frozen=True)
class Placeholder:
    """Stands for a tensor in a launch spec: only its shape and element size are read."""

    shape: tuple[int, ...]
    itemsize: int


def _shape(text: str, sizes: dict) -> tuple[int, ...]:
    value = spec.Expr(text)(sizes)
    return tuple(int(v) for v in (value if isinstance(value, list | tuple) else [value]))


def environment(task: Task, sizes: dict[str, int]) -> dict:
    """What a launch spec's names are bound to, for a configuration of `task`."""
    if task.kind == "c2cuda":
        h = harness.parse_harness(task.harness)
        env = dict(sizes)
        for a in h.args:
            if a.pointer:
                env[a.name] = Placeholder(_shape(a.shape.text, env), DTYPES[a.dtype].size)
        return env
    sig = task.signature
    env = {s: sizes[s] for s in init_sizes(sig)}
    for t in sig.inputs:
        env[t.name] = Placeholder(tuple(_shape(f"[{', '.join(t.shape)}]", sizes)), resolve(t.dtype, task.dtype).size)
    return env


def launch(task: Task, impl: Implementation, sizes: dict[str, int]) -> dict:
    """grid, block, dynamic shared memory and scalar arguments (by kernel parameter name)."""
    launch_spec = spec.parse_spec(spec.embedded_spec(impl.source))
    env = environment(task, sizes)
    for b in launch_spec.outputs:
        env[b.name] = Placeholder(_shape(b.shape.text, env), DTYPES[b.dtype].size)
    first = launch_spec.launches[0]
    grid = [int(e(env)) for e in first.grid] + [1] * (3 - len(first.grid))
    block = [int(e(env)) for e in first.block] + [1] * (3 - len(first.block))
    _, params = parameters(impl.source)
    args = {}
    for (_, name), expr in zip(params, first.args):
        value = expr(env)
        if isinstance(value, spec.Scalar):
            args[name] = value.value
        elif not isinstance(value, Placeholder):
            args[name] = value
    return {"grid": tuple(grid), "block": tuple(block), "dynamic_smem": int(first.smem(env)), "args": args}


def analyse(task: Task, impl: Implementation, sizes: dict[str, int]) -> dict:
    """The `cudaperf.analyze/1` kernel object under the configuration's launch."""
    from ...analysis import Options, analyze_source

    given = launch(task, impl, sizes)
    report = analyze_source(impl.source, f"{task.task_id}/{impl.impl_id}.cu",
                            Options(kernel=impl.kernel, grid=given["grid"], block=given["block"],
                                    dynamic_smem=given["dynamic_smem"], args=given["args"]))
    return report.kernels[0].to_json()


def _task_rows(task_id: str) -> list[dict]:
    task = _by_id()[task_id]
    rows = []
    for impl in task.implementations:
        for config in task.configs:
            try:
                row = {"inputs": describe(analyse(task, impl, config["sizes"]))}
            except Exception as exc:   # recorded, so a gap in the features file has a reason
                row = {"error": f"{type(exc).__name__}: {exc}"[:300]}
            rows.append({"task_id": task.task_id, "impl_id": impl.impl_id, "config_id": config["config_id"], **row})
    return rows


_TASKS: dict[str, Task] = {}


def _by_id() -> dict[str, Task]:
    if not _TASKS:
        _TASKS.update((t.task_id, t) for t in all_tasks())
    return _TASKS


def rows(task_ids: list[str], jobs: int = 1) -> Iterator[dict]:
    if jobs <= 1:
        for task_id in task_ids:
            yield from _task_rows(task_id)
        return
    _by_id()
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for chunk in pool.imap(_task_rows, task_ids):
            yield from chunk


def write(path: str | Path, jobs: int = 1, families: list[str] | None = None) -> int:
    """Analyse every (task, implementation, configuration) into a gzipped JSON-lines file."""
    ids = [t.task_id for t in all_tasks(families)]
    count = 0
    with gzip.open(path, "wt") as out:
        for row in rows(ids, jobs):
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
            count += 1
    return count
