"""The recipe: every task of every family, in a fixed order, and the task records as JSON lines.
Regenerating gives byte-identical sources, so the committed measurements (keyed by task, implementation
and configuration ids) stay joined to the code that produced them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from .families import (
    conv,
    elementwise,
    gather,
    histogram,
    matmul,
    norm,
    pooling,
    reduction,
    scan,
    softmax,
    stencil,
    transpose,
)
from .kit import SCHEMA, Task

FAMILIES = {"elementwise": elementwise, "reduction": reduction, "softmax": softmax, "norm": norm, "scan": scan,
            "histogram": histogram, "transpose": transpose, "matmul": matmul, "conv": conv, "stencil": stencil,
            "gather": gather, "pooling": pooling}


def all_tasks(families: list[str] | None = None) -> Iterator[Task]:
    for name, module in FAMILIES.items():
        if families is None or name in families:
            yield from module.tasks()


def task_record(task: Task) -> dict:
    """One line of tasks.jsonl.  Nested values whose shape differs between tasks (the harness, the
    launch specs, the sizes) are JSON strings, so Arrow infers one schema for the whole file."""
    return {
        "schema": SCHEMA, "task_id": task.task_id, "family": task.family, "variant": task.variant,
        "kind": task.kind, "dtype": task.dtype, "description": task.description,
        "reference": task.reference, "harness": json.dumps(task.harness) if task.harness else None,
        "atol": task.atol, "rtol": task.rtol,
        "configs": [{"config_id": c["config_id"], "name": c["name"], "sizes": json.dumps(c["sizes"])}
                    for c in task.configs],
        "implementations": [{"impl_id": i.impl_id, "tags": list(i.tags), "note": i.note, "kernel": i.kernel,
                             "source": i.source} for i in task.implementations],
    }


def write_tasks(path: str | Path, families: list[str] | None = None) -> int:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w") as out:
        for task in all_tasks(families):
            out.write(json.dumps(task_record(task)) + "\n")
            count += 1
    return count
