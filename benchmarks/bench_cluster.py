"""Candidates per minute on 1..N GPUs, local engine against the Ray backend (needs GPUs, torch, ray).

    python benchmarks/bench_cluster.py --gpus 1 2 --native 40 --kernelbench 8 -o bench_cluster.json

For each GPU count k: the local engine on GPUs 0..k-1, then a one-node Ray cluster started here with
k GPUs (one engine actor per GPU), each on a batch of fresh candidates of the scale_add task (every
source distinct, so every compile is fresh; bench_eval.py's variants and summary).  A first
KernelBench candidate (on the first engine only) precompiles torch's header before anything is
timed; each engine's first native candidate (workers and actors starting) runs before its timed
batches.  With one GPU, also the local
engine with two slots on that one GPU (`--gpus` entries may repeat), which shows whether the native
path is bound by the GPU or by the host.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_eval import TASK, _summary, _timed, _variants


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpus", type=int, nargs="+", default=[1], help="GPU counts to measure")
    parser.add_argument("--native", type=int, default=40, help="native candidates per batch")
    parser.add_argument("--kernelbench", type=int, default=8, help="KernelBench candidates per batch")
    parser.add_argument("-o", "--output", help="write the figures as JSON here")
    args = parser.parse_args()
    os.environ["CUDAPERF_CACHE_DIR"] = tempfile.mkdtemp(prefix="cudaperf-bench-")
    from cudaperf.rewards.execution.api import Evaluator, Options
    from cudaperf.rewards.execution.formats import load_task

    task, figures = load_task(TASK / "reference.py"), {"machine": {"cpus": os.cpu_count()}}
    serial = [0]

    def fresh(kind: str, count: int) -> list:
        serial[0] += 1
        tag = f"{int(time.time())}-{serial[0]}"
        if kind == "native":
            return _variants(TASK / "candidate_native.cu", count, tag, "*/")
        return _variants(TASK / "candidate_kernelbench.py", count, tag, "#include <torch/extension.h>")

    def report(key: str, value: dict) -> None:
        figures[key] = value
        print(f"{key}: {json.dumps(value)}", flush=True)
        if args.output:
            Path(args.output).write_text(json.dumps(figures, indent=2))

    def measure(name: str, evaluator) -> None:
        kinds = ["native", "kb"] if args.kernelbench and not figures.get("header_precompiled") else ["native"]
        figures["header_precompiled"] = "kb" in kinds or figures.get("header_precompiled", False)
        warm, seconds = _timed(lambda: [evaluator.evaluate(task, fresh(kind, 1)[0]) for kind in kinds])
        report(f"{name}/warm_up", {"seconds": seconds, "statuses": [r.status for r in warm],
                                   "device": evaluator.hello.get("device")})
        results, wall = _timed(lambda: evaluator.evaluate_many(task, fresh("native", args.native)))
        report(f"{name}/native", _summary(results, wall))
        if args.kernelbench:
            results, wall = _timed(lambda: evaluator.evaluate_many(task, fresh("kb", args.kernelbench)))
            report(f"{name}/kernelbench", _summary(results, wall))

    for k in args.gpus:
        with Evaluator(Options(gpus=list(range(k)))) as evaluator:
            figures["machine"]["torch"] = evaluator.hello.get("torch")
            measure(f"local_{k}gpu", evaluator)
        try:
            import ray

            ray.init(num_gpus=k, include_dashboard=False, log_to_driver=False, object_store_memory=2 << 30)
            with Evaluator(Options(), backend="ray") as evaluator:
                report(f"ray_{k}gpu/actors", {"actors": len(evaluator.actors),
                                              "per_actor": [a.capacity for a in evaluator.actors]})
                measure(f"ray_{k}gpu", evaluator)
        except Exception:   # report what broke and keep the local figures
            report(f"ray_{k}gpu/error", {"traceback": traceback.format_exc().splitlines()[-12:]})
        finally:
            if "ray" in sys.modules and sys.modules["ray"].is_initialized():
                sys.modules["ray"].shutdown()
    if args.gpus == [1]:
        with Evaluator(Options(gpus=[0], candidates_per_gpu=2)) as evaluator:
            evaluator.evaluate(task, fresh("native", 1)[0])
            results, wall = _timed(lambda: evaluator.evaluate_many(task, fresh("native", args.native)))
            report("local_2slots_1gpu/native", _summary(results, wall))
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
