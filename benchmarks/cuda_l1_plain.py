"""Every CUDA-L1 solution timed as KernelBench times it, outside the engine, for the ranker's data.

The engine (`cuda_l1.py time`) judges a candidate before it times it: a solution whose extension
fails to build and that falls back to torch inside `try/except` is a compile error there, one whose
own kernels never run is rejected, and neither gets a time.  Rankers are asked to order such
solutions all the same (leaderboards time them), so this script measures what each solution does
when run: reference and solution built from the same seed, outputs compared (atol = rtol = 1e-2),
then each timed with CUDA events (3 warm-up calls, median of 20).  It runs published code
(deepreinforce-ai/CUDA-L1's release) unsandboxed and is meant for a disposable GPU machine only.

    python3 benchmarks/cuda_l1_plain.py TASKS_DIR RESULTS.jsonl [--seconds S] [--builders N] [--done RESULTS.jsonl ...]

Extensions are built in parallel (`--builders` processes, each importing one solution) while
torch-only tasks are timed; a task with extensions is timed as soon as its own builds are done.  A
build that fails is recorded, and the timing process makes that `load_inline` call raise at once,
as it would after its 20-40 s of nvcc.  `--done RESULTS.jsonl ...` skips the tasks that earlier runs
timed.  Tasks are timed one after another in a long-lived process,
restarted after a crash, one JSON line per solution (`task`, `solution`, `sha1`, `correct`,
`time_ms`, `reference_ms`, `error`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

FAILED_BUILDS = "failed_builds.jsonl"


def _key(kwargs: dict) -> str:
    parts = [str(kwargs.get(k)) for k in ("name", "cpp_sources", "cuda_sources", "functions")]
    return hashlib.sha1("\0".join(parts).encode()).hexdigest()


def _patch_load_inline(failed_file: Path, record: bool) -> None:
    """Builders record failing builds; the timer makes a recorded failure raise without nvcc."""
    import torch.utils.cpp_extension as ext

    failed = {json.loads(x)["key"] for x in failed_file.read_text().splitlines()} if failed_file.exists() else set()
    real = ext.load_inline

    def load_inline(*args, **kwargs):
        names = ("name", "cpp_sources", "cuda_sources", "functions")
        kwargs = {**dict(zip(names, args)), **kwargs}
        key = _key(kwargs)
        if key in failed:
            raise RuntimeError("extension build failed (recorded by the build phase)")
        try:
            return real(**kwargs)
        except Exception:
            if record:
                with failed_file.open("a") as stream:
                    stream.write(json.dumps({"key": key}) + "\n")
            raise

    ext.load_inline = load_inline


def import_file(path: Path, name: str):
    """The module a Python file defines, imported under `name` (kb_kernel_times_h200.py uses it too)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _median_ms(fn, inputs) -> float:
    import torch

    with torch.no_grad():
        for _ in range(3):
            fn(*inputs)
        times = []
        for _ in range(20):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn(*inputs)
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def _same(a, b) -> bool:
    import torch

    if isinstance(a, (tuple, list)):
        return isinstance(b, (tuple, list)) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, torch.Tensor):
        return (isinstance(b, torch.Tensor) and a.shape == b.shape
                and torch.allclose(a.float(), b.float(), atol=1e-2, rtol=1e-2))
    return a == b


def _default_precision() -> None:
    """torch's defaults again: a solution that turned TF32 or cuDNN autotuning on must not speed up
    the references and solutions timed after it in this process."""
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = True
    torch.backends.cudnn.benchmark = False
    torch.set_float32_matmul_precision("highest")


def _time_task(directory: Path, out) -> None:
    import torch

    def fresh_inputs(module):
        torch.manual_seed(0)
        return [x.cuda() if isinstance(x, torch.Tensor) else x for x in module.get_inputs()]

    _default_precision()
    ref_module = import_file(directory / "reference.py", f"ref_{directory.name}")
    init = ref_module.get_init_inputs()
    torch.manual_seed(0)
    reference = ref_module.Model(*init).cuda().eval()
    inputs = fresh_inputs(ref_module)
    with torch.no_grad():
        expected = reference(*inputs)
    reference_ms = _median_ms(reference, inputs)
    for path in sorted(directory.glob("cuda_l1_*.py")):
        row = {"task": directory.name, "solution": path.stem, "sha1": hashlib.sha1(path.read_bytes()).hexdigest(),
               "reference_ms": reference_ms, "correct": None, "time_ms": None, "error": None}
        try:
            _default_precision()
            module = import_file(path, f"sol_{directory.name}_{path.stem}")
            torch.manual_seed(0)
            model = module.ModelNew(*init).cuda().eval()
            inputs = fresh_inputs(ref_module)
            with torch.no_grad():
                row["correct"] = bool(_same(expected, model(*inputs)))
            row["time_ms"] = _median_ms(model, inputs)
        except Exception as exc:                     # a solution's own failure: recorded, the next one runs
            row["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
        out.write(json.dumps(row) + "\n")
        out.flush()
        torch.cuda.synchronize()


def _timer(tasks: list[str], results: Path, failed_file: Path) -> None:
    """The long-lived timing process: one task after another, each line written when known."""
    _patch_load_inline(failed_file, record=False)
    with results.open("a") as out:
        for task in tasks:
            print(f"TASK {task}", flush=True)
            try:
                _time_task(Path(task), out)
            except Exception as exc:                 # the reference itself failed: say so, go on
                out.write(json.dumps({"task": Path(task).name, "reference_error": str(exc)[:300]}) + "\n")
                out.flush()


def _build(path: Path, failed_file: Path) -> None:
    code = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import cuda_l1_plain as p; "
            f"from pathlib import Path; p._patch_load_inline(Path({str(failed_file)!r}), record=True); "
            f"p.import_file(Path({str(path)!r}), 'm')")
    try:
        subprocess.run([sys.executable, "-c", code], timeout=240, capture_output=True)
    except subprocess.TimeoutExpired:
        pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tasks", type=Path)
    parser.add_argument("results", type=Path)
    parser.add_argument("--seconds", type=float, default=480.0)
    parser.add_argument("--builders", type=int, default=12)
    parser.add_argument("--done", nargs="*", type=Path, default=[], help="skip the tasks these results hold")
    parser.add_argument("--timer", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    failed_file = args.results.parent / FAILED_BUILDS
    if args.timer is not None:
        _timer(args.timer, args.results, failed_file)
        return 0
    started = time.monotonic()
    os.environ.setdefault("TORCH_EXTENSIONS_DIR", str(args.results.parent / "torch_extensions"))
    timed = {json.loads(line)["task"] for f in args.done for line in f.read_text().splitlines()}
    directories = sorted(p for p in args.tasks.iterdir() if (p / "reference.py").exists() and p.name not in timed)
    builders = ThreadPoolExecutor(args.builders)
    builds = {d: [builders.submit(_build, p, failed_file) for p in sorted(d.glob("cuda_l1_*.py"))
                  if "load_inline" in p.read_text()] for d in directories}
    # Torch-only tasks first, while the extensions build; then each task once its builds are done.
    pending = [str(d) for d in sorted(directories, key=lambda d: (bool(builds[d]), d.name))]
    while pending and time.monotonic() - started < args.seconds:
        batch = [d for d in pending if all(f.done() for f in builds[Path(d)])]
        building = sum(not f.done() for fs in builds.values() for f in fs)
        if len(batch) < 4 and building:              # a timer's start (torch, CUDA) is worth a few tasks
            time.sleep(2)
            continue
        done_before = len(args.results.read_text().splitlines()) if args.results.exists() else 0
        left = max(10.0, args.seconds - (time.monotonic() - started))
        proc = subprocess.Popen([sys.executable, __file__, str(args.tasks), str(args.results), "--timer", *batch],
                                stdout=subprocess.PIPE, text=True)
        seen: list[str] = []
        cut = False
        try:
            for line in proc.stdout:
                if line.startswith("TASK "):
                    seen.append(line[5:].strip())
                    if time.monotonic() - started > args.seconds:
                        cut = True
                        proc.kill()
                        break
            proc.wait(timeout=left)
        except subprocess.TimeoutExpired:
            cut = True
            proc.kill()
        proc.wait()
        if proc.returncode and seen and not cut:     # the task it was on crashed the process: skip it
            with args.results.open("a") as out:
                out.write(json.dumps({"task": Path(seen[-1]).name, "crashed": proc.returncode}) + "\n")
        pending = [d for d in pending if d not in set(seen)]
        rows = len(args.results.read_text().splitlines()) if args.results.exists() else 0
        print(f"[{time.monotonic() - started:6.1f} s] {len(seen)} tasks, {rows - done_before} rows, "
              f"{len(pending)} tasks left", flush=True)
    print(f"done in {time.monotonic() - started:.0f} s, {len(pending)} tasks not timed", flush=True)
    os._exit(0)                                      # not waiting for builds still running


if __name__ == "__main__":
    sys.exit(main())
