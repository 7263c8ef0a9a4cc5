"""Forked workers against fresh interpreters on a machine without a GPU (`Options(device="cpu")`):
a batch of Python candidates, each of which uses up its worker, so the batch's wall time is mostly
worker starts.

    python benchmarks/worker_fork_cpu.py [--candidates 8]

Prints the wall seconds of the batch with workers forked from the zygote and with each worker a
fresh interpreter (`Options.fork_workers=False`), same candidates, one after the other.
"""

from __future__ import annotations

import argparse
import json
import time

from cudaperf.rewards.execution.api import Evaluator, Options
from cudaperf.rewards.execution.formats import candidate_from_source, task_from_source

REFERENCE = """import torch, torch.nn as nn
class Model(nn.Module):
    def forward(self, a, b):
        return 2.0 * a + b
def get_inputs():
    return [torch.randn(256), torch.randn(256)]
def get_init_inputs():
    return []
"""


def batch(count: int, fork: bool) -> dict:
    task = task_from_source(REFERENCE, "torch")
    candidates = [candidate_from_source(REFERENCE.replace("class Model", "class ModelNew") + f"# {i}\n", "python",
                                        path=f"c{i}.py") for i in range(count)]
    start = time.perf_counter()
    with Evaluator(Options(device="cpu", gate=False, trials=2, fork_workers=fork)) as evaluator:
        results = evaluator.evaluate_many(task, candidates)
    return {"wall_s": round(time.perf_counter() - start, 2), "statuses": sorted({r.status for r in results})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=8)
    args = parser.parse_args()
    print(json.dumps({"forked": batch(args.candidates, True), "fresh": batch(args.candidates, False)}))


if __name__ == "__main__":
    main()
