"""Contrastive export for reward models: (chosen, rejected) implementation pairs of the same task
and configuration, the chosen one measured faster on the H200 by at least `min_ratio`, as JSON lines
with TRL RewardTrainer's columns (`prompt`, `chosen`, `rejected`) plus provenance."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path

from .generate import all_tasks
from .load import DEFAULT, groups, samples


def prompt(task) -> str:
    what = "C function" if task.kind == "c2cuda" else "PyTorch module"
    return (f"Write a CUDA implementation (extern \"C\" kernel with a cudaperf:launch spec) of this {what}: "
            f"{task.description}.\n\n{task.reference}")


def rows(data: str | Path = DEFAULT, min_ratio: float = 1.25) -> Iterator[dict]:
    tasks = {t.task_id: t for t in all_tasks()}
    for (task_id, config_id), group in groups(samples(data)).items():
        task = tasks[task_id]
        sources = {i.impl_id: i.source for i in task.implementations}
        sizes = json.dumps(task.configs[config_id]["sizes"])
        for fast, slow in itertools.combinations(sorted(group, key=lambda s: s.time_ms), 2):
            ratio = slow.time_ms / fast.time_ms
            if ratio >= min_ratio:
                yield {"prompt": f"{prompt(task)}\n\nInput sizes: {sizes}", "chosen": sources[fast.impl_id],
                       "rejected": sources[slow.impl_id], "task_id": task_id, "config_id": config_id,
                       "chosen_impl": fast.impl_id, "rejected_impl": slow.impl_id, "ratio": round(ratio, 3)}


def write(path: str | Path, data: str | Path = DEFAULT, min_ratio: float = 1.25) -> int:
    count = 0
    with Path(path).open("w") as out:
        for row in rows(data, min_ratio):
            out.write(json.dumps(row) + "\n")
            count += 1
    return count
