"""What each torch operator of a CUDA-L1 task costs on the GPU, for the time model's torch side.

The ranker prices a torch rewrite by its operators (`costmodel.torch_ops.op_terms`: bytes at DRAM
rate, FLOPs at cuBLAS / cuDNN rates, host time per call).  Those rates were set by hand; this measures
them.  For each task's reference and each solution that builds no extension (a torch rewrite), on a GPU:

- `forward_ms`: the median of 20 CUDA-event timed calls after 3 warm-ups (as `cuda_l1_plain.py` times);
- `host_ms`: the median wall time of a call with the GPU idle beforehand, not waiting for it (the
  host's share: Python, dispatch, launches);
- `ops`: torch.profiler's tree of one call, aten operators only: name, input shapes, CPU time, the
  kernels each launched directly (name, microseconds) and its children.

It runs published code (deepreinforce-ai/CUDA-L1's release) unsandboxed and is meant for a disposable
GPU machine only.

    python3 benchmarks/torch_ops_h200.py TASKS_DIR OUT.jsonl [--seconds S] [--shard I/N] [--done OUT.jsonl ...]

`--shard I/N` takes every Nth task from the Ith (one process per GPU, `CUDA_VISIBLE_DEVICES`).

One JSON line per module (`task`, `solution`: `reference` or the solution's file stem, ...).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import cuda_l1_plain as plain

_EXTENSIONS = ("load_inline", "cpp_extension", "triton", "cupy")


def _tree(event) -> dict:
    """One aten operator of the profile, with the kernels it launched and its aten children."""
    node = {"n": event.name, "s": [list(s) for s in (event.input_shapes or [])][:4],
            "cpu": round(event.cpu_time_total, 2),
            "k": [[k.name[:120], round(k.duration, 2)] for k in event.kernels]}
    # children that launched nothing (views, allocations, runtime calls) are left out
    children = [c for c in map(_tree, (c for c in event.cpu_children if not c.is_async)) if c["k"] or c.get("c")]
    if children:
        node["c"] = children
    return node


def _profile(fn, inputs) -> list[dict]:
    import torch
    from torch.profiler import ProfilerActivity, profile, record_function

    with torch.no_grad(), profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                                  record_shapes=True) as prof:
        for i in range(3):
            with record_function(f"call{i}"):
                fn(*inputs)
            torch.cuda.synchronize()
    calls = [e for e in prof.events() if e.name == "call2"]
    if not calls:
        return []
    return [_tree(c) for c in calls[0].cpu_children if not c.is_async]


def _host_ms(fn, inputs) -> float:
    import torch

    times = []
    with torch.no_grad():
        for _ in range(20):
            torch.cuda.synchronize()
            start = time.perf_counter()
            fn(*inputs)
            times.append((time.perf_counter() - start) * 1e3)
    torch.cuda.synchronize()
    return statistics.median(times)


def _measure(directory: Path, path: Path, label: str, out) -> None:
    import torch

    row = {"task": directory.name, "solution": label, "forward_ms": None, "host_ms": None, "ops": None,
           "error": None}
    try:
        plain._default_precision()
        ref_module = plain._import(directory / "reference.py", f"ref_{directory.name}_{label}")
        module = plain._import(path, f"m_{directory.name}_{label}") if label != "reference" else ref_module
        init = ref_module.get_init_inputs()
        torch.manual_seed(0)
        model = (module.Model if label == "reference" else module.ModelNew)(*init).cuda().eval()
        torch.manual_seed(0)
        inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in ref_module.get_inputs()]
        row["forward_ms"] = plain._median_ms(model, inputs)
        row["host_ms"] = _host_ms(model, inputs)
        row["ops"] = _profile(model, inputs)
    except Exception as exc:                         # a module's own failure: recorded, the next one runs
        row["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
    out.write(json.dumps(row) + "\n")
    out.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tasks", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seconds", type=float, default=500.0)
    parser.add_argument("--shard", default="0/1")
    parser.add_argument("--done", nargs="*", type=Path, default=[], help="skip the modules these results hold")
    args = parser.parse_args(argv)
    started = time.monotonic()
    done = {(r["task"], r["solution"]) for f in args.done for r in map(json.loads, f.read_text().splitlines())}
    index, count = map(int, args.shard.split("/"))
    tasks = sorted(p for p in args.tasks.iterdir() if (p / "reference.py").exists())[index::count]
    with args.out.open("a") as out:
        for directory in tasks:
            modules = [(directory / "reference.py", "reference")] + [
                (p, p.stem) for p in sorted(directory.glob("cuda_l1_*.py"))
                if not any(word in p.read_text() for word in _EXTENSIONS)]
            for path, label in modules:
                if (directory.name, label) in done:
                    continue
                if time.monotonic() - started > args.seconds:
                    print("out of time", flush=True)
                    return 0
                _measure(directory, path, label, out)
            print(f"TASK {directory.name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
