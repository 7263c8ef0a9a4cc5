"""Speed of the rewards on this machine.

    python benchmarks/bench_rewards.py                        # structural: ms per completion (CPU)
    python benchmarks/bench_rewards.py --gpu 64 -o out.json   # and unified on a batch of 64 (GPU)

Structural: every completion of tests/reward_families, one `structural_reward` call each (code
extraction, the analyzer with estimated registers, the components), `--repeats` times after one
warm-up pass; median, 90th percentile and maximum.  Unified: a batch of distinct native completions
for examples/eval/scale_add (correct fast, correct slow, wrong, compile error; a comment makes each
source unique, so every compile is fresh) in one `unified_reward` call on a warm engine: the whole
pipeline, gate, NVRTC in parallel, correctness trials and timing on the GPU, structure meanwhile.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FAMILIES = ROOT / "tests" / "reward_families"
REFERENCE = (ROOT / "examples" / "eval" / "scale_add" / "reference.py").read_text()
BATCH_SOURCES = [FAMILIES / "coalescing" / f for f in ("better_grid_stride.md", "better_vectorised.md",
                                                       "worse_row_walk.md", "worse_chunked.md")]


def structural(repeats: int, config=None) -> dict:
    """Per completion: wall ms, and CPU ms (process time, the analysis thread's included), which a
    shared machine's load inflates far less than wall time."""
    from cudaperf.rewards import make_reward

    reward = make_reward("structural", config)
    texts = [p.read_text() for p in sorted(FAMILIES.glob("*/*.md"))]
    for text in texts:
        reward(prompts=["p"], completions=[text])
    times, cpu = [], []
    for _ in range(repeats):
        for text in texts:
            start, start_cpu = time.perf_counter(), time.process_time()
            reward(prompts=["p"], completions=[text])
            times.append((time.perf_counter() - start) * 1e3)
            cpu.append((time.process_time() - start_cpu) * 1e3)
    times.sort()
    cpu.sort()
    return {"completions": len(texts), "calls": len(times), "median_ms": statistics.median(times),
            "p90_ms": times[int(0.9 * (len(times) - 1))], "max_ms": times[-1],
            "median_cpu_ms": statistics.median(cpu), "p90_cpu_ms": cpu[int(0.9 * (len(cpu) - 1))],
            "max_cpu_ms": cpu[-1]}


def _batch(n: int, tag: str) -> list[str]:
    wrong = (ROOT / "tests" / "hacks" / "runtime" / "native_wrong.cu").read_text()
    broken = (ROOT / "tests" / "hacks" / "runtime" / "native_compile_error.cu").read_text()
    pool = [p.read_text() for p in BATCH_SOURCES] + [f"```cuda\n{wrong}\n```", f"```cuda\n{broken}\n```"]
    return [pool[i % len(pool)].replace("```cuda\n", f"```cuda\n// variant {tag}-{i}\n", 1) for i in range(n)]


def unified(n: int) -> dict:
    from cudaperf.rewards import RewardConfig, make_reward
    from cudaperf.rewards.execution.api import Evaluator, Options

    extra: dict = {}
    with Evaluator(Options()) as evaluator:
        reward = make_reward("unified", RewardConfig(), evaluator=evaluator)
        start = time.perf_counter()
        reward(prompts=["p"], completions=_batch(1, "warm"), reference=[REFERENCE], kind=["torch2cuda"])
        cold = time.perf_counter() - start
        completions = _batch(n, str(int(time.time())))
        start = time.perf_counter()
        rewards = reward(prompts=["p"] * n, completions=completions, reference=[REFERENCE] * n,
                         kind=["torch2cuda"] * n, log_extra=lambda column, values: extra.update({column: values}))
        wall = time.perf_counter() - start
        device = evaluator.hello
    statuses = extra.get("unified_reward_status", [])
    by_status = {s: [r for r, t in zip(rewards, statuses) if t == s and r is not None] for s in set(statuses)}
    return {"device": device, "first_call_s": cold, "completions": n, "wall_s": wall,
            "seconds_per_completion": wall / n, "completions_per_minute": 60 * n / wall,
            "statuses": dict(Counter(statuses)),
            "mean_reward_by_status": {s: sum(v) / len(v) for s, v in by_status.items() if v}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20, help="structural passes over the families")
    parser.add_argument("--gpu", type=int, default=0, metavar="N", help="also score a batch of N on the GPU")
    parser.add_argument("-o", "--output", help="write the figures as JSON here")
    args = parser.parse_args()
    os.environ.setdefault("CUDAPERF_CACHE_DIR", tempfile.mkdtemp(prefix="cudaperf-bench-"))
    figures: dict = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                 "processor": platform.processor() or platform.machine(),
                                 "load_average_1_5_15": list(os.getloadavg())}}
    figures["structural"] = structural(args.repeats)
    print(f"structural: {json.dumps(figures['structural'])}", flush=True)
    if args.gpu:
        figures["unified_batch"] = unified(args.gpu)
        print(f"unified_batch: {json.dumps(figures['unified_batch'])}", flush=True)
    if args.output:
        Path(args.output).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
