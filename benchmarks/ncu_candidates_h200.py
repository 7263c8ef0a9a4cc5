"""Nsight Compute's view of KernelBench-style candidates' kernels, on the GPU machine: where the time
model's terms miss, what the hardware says the kernel waited on (issue slots, stall reasons, occupancy).

Each candidate (a `ModelNew` file beside its task's `reference.py`) is built first, all in parallel, each
in its own extensions directory; then each runs two forward calls under `ncu` (SpeedOfLight,
LaunchStats, Occupancy, WarpStateStats, InstructionStats; every kernel of the candidate's own, the first
`--launch-count` launches), written to OUT/<task>__<candidate>.csv.  `--metrics` collects only
METRICS instead (one pass per kernel: time, executed instructions by kind, launch shape), four candidates
under ncu at a time, for many candidates in one device call.

    python3 benchmarks/ncu_candidates_h200.py OUT tests/kb_fresh8/conv2d_min_tanh/honest_naive.py ...
    python3 benchmarks/ncu_candidates_h200.py --metrics OUT tests/kb_fresh7/*/honest_*.py

Needs torch, nvcc and ncu; a candidate that fails says so in OUT/errors.txt and the others go on.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from cuda_l1_plain import import_file

SECTIONS = ("SpeedOfLight", "LaunchStats", "Occupancy", "WarpStateStats", "InstructionStats")
METRICS = ("gpu__time_duration.sum", "sm__inst_executed.sum", "smsp__sass_inst_executed_op_global_ld.sum",
           "smsp__sass_inst_executed_op_global_st.sum", "smsp__sass_inst_executed_op_shared_ld.sum",
           "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "sm__inst_executed_pipe_alu.sum",
           "sm__inst_executed_pipe_fma.sum", "sm__inst_executed_pipe_lsu.sum", "sm__inst_executed_pipe_tensor.sum",
           "sm__warps_active.avg.pct_of_peak_sustained_active")
LAUNCHES = 8


def _extensions(out: Path, candidate: Path) -> str:
    return str(out / "ext" / f"{candidate.parent.name}__{candidate.stem}")


def drive(candidate: str, forwards: int) -> None:
    """Build the candidate (its extension) and call it `forwards` times on its task's inputs."""
    import torch

    path = Path(candidate)
    reference = import_file(path.parent / "reference.py", "reference")
    torch.manual_seed(0)
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in reference.get_inputs()]
    model = import_file(path, "candidate").ModelNew(*reference.get_init_inputs()).cuda()
    with torch.no_grad():
        for _ in range(forwards):
            model(*inputs)
    torch.cuda.synchronize()


def _build(out: Path, candidate: str) -> str | None:
    """None once the candidate's extension is built and has run; else why not.  A build that a killed run
    left half done holds torch's lock file, on which the next build would wait for ever: removed first."""
    extensions = _extensions(out, Path(candidate))
    for lock in Path(extensions).glob("*/lock"):
        lock.unlink()
    try:
        done = subprocess.run([sys.executable, __file__, "--drive", candidate, "1"], capture_output=True, text=True,
                              env={**os.environ, "TORCH_EXTENSIONS_DIR": extensions}, timeout=400)
    except subprocess.TimeoutExpired:
        return "timed out after 400 s"
    return None if done.returncode == 0 else (done.stderr.strip().splitlines() or ["?"])[-1][:300]


def _known(metrics: tuple[str, ...]) -> list[str]:
    """The metrics this ncu and GPU know: one unknown name would fail every candidate's run."""
    listed = subprocess.run(["ncu", "--query-metrics"], capture_output=True, text=True, timeout=120).stdout
    names = {line.split()[0] for line in listed.splitlines() if line.strip()}
    return [m for m in metrics if m.split(".")[0] in names]


def _profile(root: Path, candidate: str, metrics: list[str] | None) -> str | None:
    path = Path(candidate)
    env = {**os.environ, "TORCH_EXTENSIONS_DIR": _extensions(root, path)}
    what = ["--metrics", ",".join(metrics)] if metrics else [a for s in SECTIONS for a in ("--section", s)]
    command = ["ncu", "--csv", "--launch-count", str(LAUNCHES), *what,
               sys.executable, __file__, "--drive", candidate, "2"]
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        print(candidate, "timed out", flush=True)
        return f"{candidate}: ncu timed out"
    (root / f"{path.parent.name}__{path.stem}.csv").write_text(done.stdout)
    print(candidate, "ok" if done.returncode == 0 else "failed", flush=True)
    return None if done.returncode == 0 else f"{candidate}: ncu exit {done.returncode}: {done.stderr.strip()[-300:]}"


def main(out: str, candidates: list[str], metrics: bool = False) -> int:
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=min(12, os.cpu_count() or 2)) as pool:
        built = list(pool.map(_build, [root] * len(candidates), candidates))
    errors = [f"{c}: build: {e}" for c, e in zip(candidates, built) if e is not None]
    ready = [c for c, e in zip(candidates, built) if e is None]
    known = _known(METRICS) if metrics else None
    if known is not None:
        print("metrics:", ",".join(known), flush=True)
    with ProcessPoolExecutor(max_workers=4 if metrics else 1) as pool:
        errors += [e for e in pool.map(_profile, [root] * len(ready), ready, [known] * len(ready)) if e]
    (root / "errors.txt").write_text("\n".join(errors) + "\n")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--drive":
        drive(sys.argv[2], int(sys.argv[3]))
    else:
        metrics = sys.argv[1] == "--metrics"
        sys.exit(main(sys.argv[1 + metrics], sys.argv[2 + metrics:], metrics))
