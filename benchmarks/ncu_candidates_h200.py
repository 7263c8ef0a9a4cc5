"""Nsight Compute's view of KernelBench-style candidates' kernels, on the GPU machine: where the time
model's terms miss, what the hardware says the kernel waited on (issue slots, stall reasons, occupancy).

Each candidate (a `ModelNew` file beside its task's `reference.py`) is built first, all in parallel, each
in its own extensions directory; then each runs two forward calls under `ncu` (SpeedOfLight,
LaunchStats, Occupancy, WarpStateStats, InstructionStats; every kernel of the candidate's own, the first
`--launch-count` launches), written to OUT/<task>__<candidate>.csv.

    python3 benchmarks/ncu_candidates_h200.py OUT tests/kb_fresh8/conv2d_min_tanh/honest_naive.py ...

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
    env = {**os.environ, "TORCH_EXTENSIONS_DIR": _extensions(out, Path(candidate))}
    done = subprocess.run([sys.executable, __file__, "--drive", candidate, "1"], env=env, capture_output=True,
                          text=True, timeout=400)
    return None if done.returncode == 0 else (done.stderr.strip().splitlines() or ["?"])[-1][:300]


def main(out: str, candidates: list[str]) -> int:
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    errors = []
    with ProcessPoolExecutor(max_workers=min(12, os.cpu_count() or 2)) as pool:
        built = list(pool.map(_build, [root] * len(candidates), candidates))
    for candidate, error in zip(candidates, built):
        path = Path(candidate)
        if error is not None:
            errors.append(f"{candidate}: build: {error}")
            continue
        env = {**os.environ, "TORCH_EXTENSIONS_DIR": _extensions(root, path)}
        command = ["ncu", "--csv", "--launch-count", str(LAUNCHES), *[a for s in SECTIONS for a in ("--section", s)],
                   sys.executable, __file__, "--drive", candidate, "2"]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
        (root / f"{path.parent.name}__{path.stem}.csv").write_text(done.stdout)
        if done.returncode != 0:
            errors.append(f"{candidate}: ncu exit {done.returncode}: {done.stderr.strip()[-300:]}")
        print(candidate, "ok" if done.returncode == 0 else "failed", flush=True)
    (root / "errors.txt").write_text("\n".join(errors) + "\n")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--drive":
        drive(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(main(sys.argv[1], sys.argv[2:]))
