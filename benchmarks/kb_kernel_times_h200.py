"""The GPU time of every kernel the KernelBench-style candidates launch (tests/kb_llm, tests/kb_heldout),
on the GPU machine: what the time model's per-launch terms estimate, measured without the host.

Each correct candidate (the ones `cudaperf.rl.dataset.kb_measured` ranks; listed on the command line)
is built with torch's `load_inline` in its own process and extensions directory, run on its task's
`get_inputs()` under `torch.no_grad()`, warmed up, then profiled over 20 forward calls with
`torch.profiler` (CUDA activity only): per kernel name, launches and device microseconds per forward.

    python3 benchmarks/kb_kernel_times_h200.py OUT.jsonl tests/kb_llm/mlp/honest_x.py ...

Needs only torch and nvcc; results are written as they finish, so a run cut short keeps what it did.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from cuda_l1_plain import import_file

FORWARDS = 20


def measure(candidate: str) -> dict:
    """One candidate's kernels: {name: [launches per forward, device us per forward]}."""
    os.environ["TORCH_EXTENSIONS_DIR"] = tempfile.mkdtemp(prefix="ext-")
    import torch

    started = time.perf_counter()
    path = Path(candidate)
    try:
        reference = import_file(path.parent / "reference.py", "reference")
        torch.manual_seed(0)
        inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in reference.get_inputs()]
        module = import_file(path, "candidate")
        model = module.ModelNew(*reference.get_init_inputs()).cuda()
        built = time.perf_counter() - started
        with torch.no_grad():
            for _ in range(5):
                model(*inputs)
            torch.cuda.synchronize()
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                for _ in range(FORWARDS):
                    model(*inputs)
                torch.cuda.synchronize()
        kernels: dict[str, list[float]] = {}
        for e in prof.events():
            if str(getattr(e, "device_type", "")).endswith("CUDA") and e.name and not e.name.startswith("Memcpy"):
                us = e.time_range.elapsed_us()
                k = kernels.setdefault(e.name, [0.0, 0.0])
                k[0] += 1.0 / FORWARDS
                k[1] += us / FORWARDS
        return {"candidate": candidate, "kernels": kernels, "build_s": round(built, 1),
                "gpu_us_per_forward": round(sum(v[1] for v in kernels.values()), 3)}
    except Exception as exc:  # a candidate that does not build or run here: say so, keep going
        return {"candidate": candidate, "error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:300]}"}


def main(out: str, candidates: list[str]) -> int:
    # a process per candidate: extensions of one name built twice in one process would share a module
    workers = ProcessPoolExecutor(max_workers=min(14, os.cpu_count() or 2), max_tasks_per_child=1)
    with open(out, "w") as stream, workers as pool:
        futures = [pool.submit(measure, c) for c in candidates]
        for f in as_completed(futures):
            r = f.result()
            stream.write(json.dumps(r) + "\n")
            stream.flush()
            print(r["candidate"], r.get("error") or r["gpu_us_per_forward"], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
