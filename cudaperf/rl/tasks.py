"""Tasks as the RL side passes them around: plain dicts of dataset columns (`task_id`, `kind`
torch2cuda | c2cuda, `reference` source text, optional `harness` JSON text), the same columns the
reward functions read from a training dataset."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..rewards.execution.formats import HARNESS_SUFFIXES

REQUIRED = ("kind", "reference")


def task_from_file(path: str | Path, harness: str | Path | None = None) -> dict[str, Any]:
    """A reference file: a KernelBench module (.py) or a C function (.c, its harness embedded, beside
    it as NAME.harness.json, or given)."""
    path = Path(path)
    task: dict[str, Any] = {"task_id": path.stem, "kind": "c2cuda" if path.suffix == ".c" else "torch2cuda",
                            "reference": path.read_text(encoding="utf-8")}
    if harness is None and path.suffix == ".c":
        stem = path.name.rsplit(".", 1)[0]
        harness = next((p for p in (path.with_name(stem + s) for s in HARNESS_SUFFIXES) if p.is_file()), None)
    if harness is not None:
        task["harness"] = Path(harness).read_text(encoding="utf-8")
    return task


def read_tasks(path: str | Path) -> list[dict[str, Any]]:
    """Tasks from a JSON-lines file, one object per line with at least `kind` and `reference`."""
    tasks = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        task = json.loads(line)
        missing = [c for c in REQUIRED if c not in task]
        if missing:
            raise ValueError(f"{path}:{number}: a task needs {', '.join(missing)}")
        if isinstance(task.get("harness"), dict):
            task["harness"] = json.dumps(task["harness"])
        tasks.append(task)
    return tasks
