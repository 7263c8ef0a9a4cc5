"""Nsight Compute in a subprocess: one launch of a plan, the curated metrics, CSV read back.

``ncu --csv --page raw --clock-control none --metrics ... --launch-count 1 --log-file F`` over
``python -m cudaperf.analysis.dynamic.gpu PLAN.json``.  ``--log-file`` keeps the CSV apart from the
program's output; ``--clock-control none`` measures at the clocks the GPU runs at rather than locked
base clocks, as the committed calibration data were.  The profiler runs in its own process group
under a time limit, and the whole group is killed when the limit passes.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from ..process import run_bounded
from .counters import METRICS
from .device import GpuUnavailable
from .ncu_csv import NcuCsvError, NcuRow, read

PACKAGE_ROOT = Path(__file__).resolve().parents[3]  # the folder holding cudaperf/, for the child


class NcuFailed(RuntimeError):
    """ncu ran but produced no row (the message ends with the tail of its output)."""


def ncu_executable() -> str:
    found = shutil.which("ncu") or next((p for p in ("/usr/local/cuda/bin/ncu",) if os.access(p, os.X_OK)), None)
    if found is None:
        raise GpuUnavailable("Nsight Compute (ncu) is not on PATH (or use --no-ncu to time only)")
    return found


def command(ncu: str, plan_path: Path, csv_path: Path) -> list[str]:
    return [ncu, "--csv", "--page", "raw", "--clock-control", "none", "--metrics", ",".join(METRICS),
            "--launch-count", "1", "--log-file", str(csv_path),
            sys.executable, "-m", "cudaperf.analysis.dynamic.gpu", str(plan_path)]


def collect(plan_path: Path, timeout: float) -> NcuRow:
    """The one profiled launch of the plan."""
    csv_path = plan_path.with_suffix(".csv")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(PACKAGE_ROOT), os.environ.get("PYTHONPATH"))))}
    done = run_bounded(command(ncu_executable(), plan_path, csv_path), timeout, env=env)
    if done.returncode is None:
        raise NcuFailed(f"ncu did not finish within {timeout:.0f} s")
    try:
        rows = read(csv_path)
    except (OSError, NcuCsvError):
        rows = []
    if done.returncode != 0 or not rows:
        output = done.stdout + done.stderr
        tail = " | ".join(line for line in output.strip().splitlines()[-3:])
        raise NcuFailed(f"ncu exited {done.returncode} with {len(rows)} profiled kernels: {tail}")
    return rows[0]
