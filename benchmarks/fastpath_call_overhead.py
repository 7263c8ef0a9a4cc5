"""Host time of one fast-path call (issue 25): the plan interpreted on every call, against the call
replayed from its recorded effects (fastpath/replay.py), against plain torch ops on the same inputs.
A launcher that does nothing stands in for the GPU, so the figures are the wrapper's own cost, which
timing adds to every candidate's kernel time (the compiled C++ wrapper costs a few microseconds).

    PYTHONPATH=. python benchmarks/fastpath_call_overhead.py [--calls 2000] [--repeats 5] [--json]

Each figure is the best of `--repeats` runs of `--calls` calls (microseconds per call)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path

import torch

from cudaperf.rewards.execution.fastpath import translate
from cudaperf.rewards.execution.fastpath.interp import Interpreter
from cudaperf.rewards.execution.fastpath.module import FastModule
from cudaperf.rewards.execution.fastpath.report import read_builds
from cudaperf.rewards.execution.formats import load_candidate

ROOT = Path(__file__).resolve().parents[1]

# candidate, exported function, its arguments (shapes its TORCH_CHECKs accept)
CASES: list[tuple[str, str, Callable[[], list]]] = [
    ("examples/eval/scale_add/candidate_kernelbench.py", "scale_add",
     lambda: [torch.randn(4096), torch.randn(4096), 0.5]),
    ("tests/kb_llm/mse_loss/honest_atomic_mean.py", "mse_cuda", lambda: [torch.randn(128, 32), torch.randn(128, 32)]),
    ("tests/kb_llm/mse_loss/honest_vectorized_two_stage.py", "mse_two_stage",
     lambda: [torch.randn(128, 32), torch.randn(128, 32)]),
    ("tests/kb_llm/mlp/honest_modulelist_params.py", "linear_forward",
     lambda: [torch.randn(16, 64), torch.randn(32, 64), torch.randn(32), True]),
]


class NoLaunch:
    def launch(self, *args: object) -> None:
        pass

    def synchronize(self) -> None:
        pass


def per_call(fn: Callable[[], object], calls: int, repeats: int) -> float:
    for _ in range(20):
        fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - start) / calls)
    return best * 1e6


def measure(path: str, name: str, make: Callable[[], list], calls: int, repeats: int) -> dict:
    (spec, *_) = read_builds(load_candidate(ROOT / path).source)
    translation = translate(spec)
    args = make()
    row = {"candidate": path, "function": name}
    for label, capacity in (("interpreted_us", 0), ("replayed_us", 64)):
        function = getattr(FastModule(Interpreter(translation, NoLaunch(), "cpu"), capacity), name)
        function(*args)
        row[label] = round(per_call(lambda f=function: f(*args), calls, repeats), 2)
    tensors = [a for a in args if isinstance(a, torch.Tensor)]
    row["torch_empty_like_us"] = round(per_call(lambda: torch.empty_like(tensors[0]), calls, repeats), 2)
    row["torch_add_us"] = round(per_call(lambda: torch.add(tensors[0], tensors[0]), calls, repeats), 2)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    torch.set_num_threads(1)
    rows = [measure(p, n, make, options.calls, options.repeats) for p, n, make in CASES]
    machine = f"{platform.machine()} x{os.cpu_count()}, torch {torch.__version__}, Python {platform.python_version()}"
    if options.json:
        print(json.dumps({"machine": machine, "rows": rows}, indent=1))
        return
    print(f"# {machine}; best of {options.repeats} x {options.calls} calls, microseconds per call")
    print("| candidate | interpreted | replayed | torch.empty_like | torch.add |")
    print("| --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {Path(r['candidate']).parent.name}/{Path(r['candidate']).stem} ({r['function']}) | "
              f"{r['interpreted_us']} | {r['replayed_us']} | {r['torch_empty_like_us']} | {r['torch_add_us']} |")


if __name__ == "__main__":
    main()
