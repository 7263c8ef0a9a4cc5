"""What a candidate worker's start costs, part by part, and what forking from a preloaded process saves.

    python benchmarks/worker_start.py [--concurrent 8]

Prints one JSON object: for a fresh interpreter (`python -c`) and for a child forked from a process that
already imported torch and the harness modules, the seconds to import, create the CUDA context and start
the profiler (CUPTI), alone and with N started at once.  Needs a GPU.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

STEPS = r"""
import time, json, sys
t0 = time.perf_counter(); laps = {}
import torch; laps["import_torch"] = time.perf_counter() - t0
import torch._dynamo, torch.profiler, torch.utils._python_dispatch
laps["import_harness"] = time.perf_counter() - t0 - sum(laps.values())
torch.cuda.init(); torch.zeros(1, device="cuda"); torch.cuda.synchronize()
laps["context"] = time.perf_counter() - t0 - sum(laps.values())
from torch.profiler import ProfilerActivity, profile
with profile(activities=[ProfilerActivity.CUDA]):
    torch.ones(1, device="cuda").add_(1); torch.cuda.synchronize()
laps["profiler_first_start"] = time.perf_counter() - t0 - sum(laps.values())
print(json.dumps({k: round(v, 3) for k, v in laps.items()}))
"""


def fresh(n: int) -> dict:
    start = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", STEPS], stdout=subprocess.PIPE, text=True) for _ in range(n)]
    laps = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
    return {"wall_s": round(time.perf_counter() - start, 2), "children": laps}


def forked(n: int) -> dict:
    import torch
    import torch._dynamo
    import torch.profiler

    start = time.perf_counter()
    pipes = []
    for _ in range(n):
        r, w = os.pipe()
        if os.fork() == 0:
            os.close(r)
            t0 = time.perf_counter()
            laps = {}
            torch.cuda.init()
            torch.zeros(1, device="cuda")
            torch.cuda.synchronize()
            laps["context"] = time.perf_counter() - t0
            from torch.profiler import ProfilerActivity, profile
            with profile(activities=[ProfilerActivity.CUDA]):
                torch.ones(1, device="cuda").add_(1)
                torch.cuda.synchronize()
            laps["profiler_first_start"] = time.perf_counter() - t0 - laps["context"]
            os.write(w, json.dumps({k: round(v, 3) for k, v in laps.items()}).encode())
            os._exit(0)
        os.close(w)
        pipes.append(r)
    laps = []
    for r in pipes:
        laps.append(json.loads(os.read(r, 1 << 16)))
        os.close(r)
    while True:
        try:
            os.wait()
        except ChildProcessError:
            break
    return {"wall_s": round(time.perf_counter() - start, 2), "children": laps}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--concurrent", type=int, default=8)
    a = ap.parse_args()
    t0 = time.perf_counter()
    import torch
    import torch._dynamo  # noqa: F401
    preload = round(time.perf_counter() - t0, 2)
    out = {"cpus": os.cpu_count(), "fresh_1": fresh(1), f"fresh_{a.concurrent}": fresh(a.concurrent),
           "preload_s": preload, "forked_1": forked(1), f"forked_{a.concurrent}": forked(a.concurrent)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
