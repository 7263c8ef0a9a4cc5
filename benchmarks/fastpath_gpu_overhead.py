"""Where the fast path's time goes on a GPU (issue 25): one KernelBench wrapper called through its
load_inline build, through the fast path (translated plan, NVRTC cubin, replayed calls), and its kernel
launched bare through the driver, each timed the way the engine times a candidate (timing.Timer: L2
flushed, whole device synchronised) and as host microseconds per call back to back.

    python benchmarks/fastpath_gpu_overhead.py [--candidate examples/eval/scale_add/candidate_kernelbench.py]
        [--size 16777216] [--calls 300] [-o overhead.json]

The load_inline build compiles torch's headers (tens of seconds, once per machine and source)."""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import torch

from cudaperf.rewards.execution import timing
from cudaperf.rewards.execution.fastpath import device, translate
from cudaperf.rewards.execution.fastpath.report import read_builds
from cudaperf.rewards.execution.formats import load_candidate

ROOT = Path(__file__).resolve().parents[1]


def per_call(timer: timing.Timer, fn, args, calls: int) -> dict:
    """The engine's timer (median ms) and host microseconds per call back to back (launch rate)."""
    for _ in range(5):
        fn(*args)
    torch.cuda.synchronize()
    timer.calibrate()
    timed = [timer(fn, args) for _ in range(calls)]
    start = time.perf_counter()
    for _ in range(calls):
        fn(*args)
    host = (time.perf_counter() - start) / calls * 1e6
    torch.cuda.synchronize()
    return {"timer_ms_median": statistics.median(timed), "timer_ms_min": min(timed), "host_us_per_call": host}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidate", default=str(ROOT / "examples/eval/scale_add/candidate_kernelbench.py"))
    parser.add_argument("--size", type=int, default=1 << 24)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    (build,) = read_builds(load_candidate(Path(args.candidate)).source)
    translation = translate(build)
    major, minor = torch.cuda.get_device_capability()
    a, b = torch.randn(args.size, device="cuda"), torch.randn(args.size, device="cuda")
    built = device.compile_device(translation, f"sm_{major}{minor}", cache=False)
    assert built.ok, built.log
    fast = device.load(translation, built)
    from torch.utils.cpp_extension import load_inline

    start = time.perf_counter()
    full = load_inline(**{**build, "name": "fastpath_overhead"}, build_directory=tempfile.mkdtemp())
    full_build_s = time.perf_counter() - start
    name = next(iter(build["functions"])) if isinstance(build.get("functions"), list | tuple) else "scale_add"
    timer = timing.Timer("cuda", int(torch.cuda.get_device_properties(0).L2_cache_size))
    launcher = device.DriverLauncher(built.cubin, built.lowered)
    kernel = next(iter(built.lowered))
    out = torch.empty_like(a)
    n = a.numel()
    bare = launcher.bind(kernel, ((n + 255) // 256, 1, 1), (256, 1, 1), 0, "current",
                         [("p", a.data_ptr()), ("p", b.data_ptr()), ("p", out.data_ptr()), ("f", 0.5), ("q", n)], ())
    figures = {"candidate": args.candidate, "size": args.size, "full_build_s": full_build_s,
               "device": torch.cuda.get_device_name(), "torch": torch.__version__}
    sides = {"full (load_inline build)": lambda: getattr(full, name)(a, b, 0.5),
             "fast (replayed plan)": lambda: getattr(fast, name)(a, b, 0.5),
             "bare kernel (driver launch)": lambda: bare(()),
             "torch a * 0.5 + b": lambda: a * 0.5 + b,
             "torch.empty_like": lambda: torch.empty_like(a),
             "torch.cuda.current_stream()": lambda: torch.cuda.current_stream().cuda_stream,
             "raw current stream (what a launch looks up)": lambda: torch._C._cuda_getCurrentRawStream(
                 torch._C._cuda_getDevice())}
    for label, fn in sides.items():
        figures[label] = per_call(timer, fn, [], args.calls)
        print(label.ljust(30), json.dumps(figures[label]), flush=True)
    assert torch.equal(getattr(full, name)(a, b, 0.5), getattr(fast, name)(a, b, 0.5))
    if args.output:
        Path(args.output).write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
