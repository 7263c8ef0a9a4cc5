"""Seconds per candidate, end to end, for `cudaperf eval` on this machine (needs a GPU and torch).

    python benchmarks/bench_eval.py --native 20 --kernelbench 8 -o bench_eval.json

Every candidate is distinct (a comment makes its source unique), so every compile is fresh: NVRTC
for the native path, a load_inline build for the KernelBench format; the compile cache starts empty
(a private CUDAPERF_CACHE_DIR).  Task: examples/eval/scale_add (16M floats, level-1 sized).
Figures: the first candidate on a cold engine (workers start), one more on a warm engine, and a
batch (compiles in parallel on the CPU cores while the GPU checks and times); for the KernelBench
format also the first build on the machine (it precompiles <torch/extension.h>), a candidate built
before, and one fresh candidate on a new engine (what a single `cudaperf eval` pays); each run includes
gate, compile, 5 correctness trials, a determinism re-run, 30 interleaved timed calls per side and
the re-check after timing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TASK = ROOT / "examples" / "eval" / "scale_add"


def _variants(path: Path, count: int, tag: str, marker: str) -> list:
    from cudaperf.rewards.execution.formats import candidate_from_source

    text = path.read_text()
    return [candidate_from_source(text.replace(marker, f"{marker}\n// variant {tag}-{i}\n", 1),
                                  path=f"{path.stem}-{i}{path.suffix}") for i in range(count)]


def _timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def _summary(results, wall: float) -> dict:
    return {"candidates": len(results), "wall_s": wall, "seconds_per_candidate": wall / len(results),
            "candidates_per_minute": 60 * len(results) / wall,
            "statuses": {s: sum(r.status == s for r in results) for s in {r.status for r in results}},
            "median_candidate_time_ms": statistics.median(r.time_ms["candidate"] for r in results
                                                          if r.time_ms["candidate"] is not None)
            if any(r.time_ms["candidate"] for r in results) else None}


def _stages(result) -> list[str]:
    return [ln for ln in result.log if " in " in ln and (" s" in ln or "s:" in ln)][:12]


STAGE = re.compile(r"^(?P<stage>.+?) in (?P<s>[0-9.]+) s$")


def _stage_seconds(results) -> dict:
    """Where a batch's time went: each checker stage's median and total seconds over the batch (the
    GPU-alone stages are serial across a GPU's slots, the others overlap)."""
    seconds: dict[str, list[float]] = {}
    for r in results:
        for line in r.log:
            if m := STAGE.match(line):
                stage = re.sub(r"^extension '[^']*': fast path: NVRTC", "NVRTC", m["stage"])
                seconds.setdefault(stage, []).append(float(m["s"]))
    return {stage: {"median_s": round(statistics.median(v), 3), "total_s": round(sum(v), 2), "count": len(v)}
            for stage, v in seconds.items()}


def _ninja_steps(root: Path) -> dict:
    """Median seconds of each load_inline build step (ninja's own log), over every build under root."""
    steps: dict[str, list[float]] = {}
    for log in root.glob("*/*/.ninja_log"):
        for line in log.read_text().splitlines()[1:]:
            start, end, _, output, _ = line.split("\t")
            step = "link" if output.endswith(".so") else output
            steps.setdefault(step, []).append((int(end) - int(start)) / 1000)
    return {step: {"median_s": statistics.median(v), "min_s": min(v), "max_s": max(v), "builds": len(v)}
            for step, v in steps.items()}


def _kernelbench(evaluator, task, kb: list, report) -> None:
    """On a warm engine: the first build on the machine (it also precompiles <torch/extension.h>),
    one fresh candidate, the same candidate again (built before), then a batch of fresh ones."""
    first, seconds = _timed(lambda: evaluator.evaluate(task, kb[0]))
    report("kernelbench_first_on_machine", {"seconds": seconds, "status": first.status, "stages": _stages(first)})
    one, seconds = _timed(lambda: evaluator.evaluate(task, kb[1]))
    report("kernelbench_one_fresh", {"seconds": seconds, "status": one.status, "speedup": one.speedup,
                                     "stages": _stages(one),
                                     "path": [f for f in one.flags if f.startswith("fast-path")],
                                     "build_log": [ln for ln in one.log if "extension" in ln]})
    again, seconds = _timed(lambda: evaluator.evaluate(task, kb[1]))
    report("kernelbench_one_cached", {"seconds": seconds, "status": again.status, "stages": _stages(again)})
    results, wall = _timed(lambda: evaluator.evaluate_many(task, kb[2:-1]))
    report("kernelbench_batch", {**_summary(results, wall), "stages": _stage_seconds(results),
                                 "candidate_seconds": [round(r.seconds, 2) for r in results],
                                 "build_log": [ln for r in results for ln in r.log if "extension" in ln]})
    report("kernelbench_build_steps", _ninja_steps(evaluator.ext_root))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--native", type=int, default=20, help="native candidates in the batch")
    parser.add_argument("--kernelbench", type=int, default=8, help="KernelBench candidates in the batch")
    parser.add_argument("--per-gpu", type=int, help="candidates at once on the GPU (default: the engine's)")
    parser.add_argument("--no-fork", action="store_true", help="workers start as fresh interpreters (no zygote)")
    parser.add_argument("-o", "--output", help="write the figures as JSON here")
    args = parser.parse_args()
    os.environ["CUDAPERF_CACHE_DIR"] = tempfile.mkdtemp(prefix="cudaperf-bench-")
    from cudaperf.rewards.execution import nvrtc
    from cudaperf.rewards.execution.api import Evaluator, Options
    from cudaperf.rewards.execution.formats import load_task

    task, tag = load_task(TASK / "reference.py"), str(int(time.time()))
    figures: dict = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                 "nvrtc": nvrtc.version()}}
    try:
        figures["machine"]["nvcc"] = subprocess.run(["nvcc", "--version"], capture_output=True, text=True,
                                                    timeout=30).stdout.strip().splitlines()[-1]
    except (OSError, subprocess.TimeoutExpired):
        pass
    native = _variants(TASK / "candidate_native.cu", args.native + 2, tag, "*/")
    kb = _variants(TASK / "candidate_kernelbench.py", args.kernelbench + 3, tag, '#include <torch/extension.h>')

    def report(key: str, value: dict) -> None:
        figures[key] = value
        print(f"{key}: {json.dumps(value)}", flush=True)
        if args.output:
            Path(args.output).write_text(json.dumps(figures, indent=2))

    options = Options(candidates_per_gpu=args.per_gpu, fork_workers=not args.no_fork)
    figures["options"] = {"candidates_per_gpu": args.per_gpu, "fork_workers": not args.no_fork}
    evaluator, start_s = _timed(lambda: Evaluator(options))
    with evaluator:
        first, seconds = _timed(lambda: evaluator.evaluate(task, native[0]))
        figures["machine"].update({k: evaluator.hello.get(k) for k in ("device", "torch", "capability",
                                                                       "startup_s")})
        report("native_first_cold", {"seconds": seconds + start_s, "status": first.status,
                                     "speedup": first.speedup, "note": "includes starting the worker"})
        warm, seconds = _timed(lambda: evaluator.evaluate(task, native[1]))
        report("native_one_warm", {"seconds": seconds, "status": warm.status, "speedup": warm.speedup,
                                   "time_ms": warm.time_ms, "stages": _stages(warm)})
        if args.native:
            results, wall = _timed(lambda: evaluator.evaluate_many(task, native[2:]))
            report("native_batch", _summary(results, wall))
        if args.kernelbench:
            _kernelbench(evaluator, task, kb, report)
    if args.kernelbench:
        evaluator, start_s = _timed(lambda: Evaluator(options))
        with evaluator:   # what one `cudaperf eval` run pays: workers start while the extension builds
            one, seconds = _timed(lambda: evaluator.evaluate(task, kb[-1]))
        report("kernelbench_one_fresh_cold_engine", {"seconds": seconds + start_s, "status": one.status,
                                                     "stages": _stages(one)})
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
