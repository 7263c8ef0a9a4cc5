#!/usr/bin/env python3
"""Run `cudaperf profile` (the command, in a subprocess) on corpus cases, with each case's launch,
arguments and buffers from the manifest, and merge the results into one cudaperf.profile/1 file.

    python3 tests/corpus/profile_h200.py --out profile.json [--log profile.log] CASE_ID...

The merged document keeps the cases' order; ``tests/data/h200/profile/`` holds one H200 run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def arguments(case: dict, out: Path) -> list[str]:
    """The `cudaperf profile` command line that reproduces a manifest case."""
    args = ["profile", str((HERE / case["file"]).relative_to(REPO)), "--kernel",
            case["kernel"] + (case.get("template_args") or ""),
            "--grid", ",".join(map(str, case["grid"])), "--block", ",".join(map(str, case["block"])),
            "--smem", str(case.get("smem") or 0), "-o", str(out)]
    args += [a for name, value in case["args"].items() for a in ("--arg", f"{name}={value}")]
    for name, b in case["buffers"].items():
        args += ["--buffer", f"{name}={b['count']}:{b['dtype']}:{b['init']}"]
    return args


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--log", type=Path)
    parser.add_argument("cases", nargs="+")
    ns = parser.parse_args()
    cases = {c["id"]: c for c in json.loads((HERE / "manifest.json").read_text())}
    merged, failed, log = None, [], []
    with tempfile.TemporaryDirectory() as tmp:
        for case_id in ns.cases:
            out = Path(tmp) / f"{case_id}.json"
            cmd = [sys.executable, "-m", "cudaperf", *arguments(cases[case_id], out)]
            run = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=300)
            log += [f"$ cudaperf {' '.join(cmd[3:])}", run.stdout + run.stderr, f"exit {run.returncode}", ""]
            print(f"[profile] {case_id}: exit {run.returncode}", flush=True)
            if run.returncode != 0:
                failed.append(case_id)
                continue
            doc = json.loads(out.read_text())
            if merged is None:
                merged = doc
            else:
                merged["kernels"] += doc["kernels"]
    if ns.log:
        ns.log.write_text("\n".join(log))
    if merged is not None:
        ns.out.write_text(json.dumps(merged, indent=1) + "\n")
    print(f"{len(ns.cases) - len(failed)}/{len(ns.cases)} cases profiled" + (f"; failed: {failed}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
