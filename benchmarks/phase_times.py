"""CPU seconds per analysis phase and per kernel over a fixed sample of files, for comparing two versions.

    python benchmarks/phase_times.py [--every 4] [--offset 0] [--json OUT.json] [DIR ...]   # default: --fetch corpora

Takes every N-th file of the sorted list `cudaperf analyze` picks in the directories (the pinned
HeCBench and cuda-samples when none are given), analyses each in this process with
`--resources estimate`, and prints the CPU seconds of the whole, of the lowering and of each pass
(`time.process_time` around `Lowerer.lower_kernel` and `Pass.run`: cProfile's per-call overhead
misstates call-heavy Python), and the per-kernel median, p90 and p99 (each file's time over its kernels,
one figure per file, as bench_analyze.py counts them).  Compare two versions only back to back on the same machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from pathlib import Path

import corpora

from cudaperf.analysis import passes
from cudaperf.analysis.analyzer import Options, analyze_file, find_sources
from cudaperf.analysis.lower.lowerer import Lowerer
from cudaperf.analysis.source import SourceError

SPENT: dict[str, float] = defaultdict(float)


def _timed(name: str, fn):
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            SPENT[name] += time.process_time() - start
    return wrapper


def instrument() -> None:
    """Time the lowering and every registered pass."""
    Lowerer.lower_kernel = _timed("lowering", Lowerer.lower_kernel)
    for p in passes.registry().values():
        p.run = _timed(p.name, p.run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write per-file times (and their phases) here")
    ns = parser.parse_args()
    files = list(find_sources(ns.dirs or corpora.directories()))[ns.offset::ns.every]
    instrument()
    options, rows = Options(resources="estimate"), []
    for path in files:
        before, start = dict(SPENT), time.process_time()
        try:
            kernels = len(analyze_file(path, options).kernels)
        except SourceError:
            kernels = 0
        rows.append({"path": str(path), "kernels": kernels, "seconds": time.process_time() - start,
                     "phases": {k: v - before.get(k, 0.0) for k, v in SPENT.items() if v > before.get(k, 0.0)}})
    whole = sum(r["seconds"] for r in rows)
    per_kernel = [1000 * r["seconds"] / r["kernels"] for r in rows if r["kernels"]]
    cuts = statistics.quantiles(per_kernel, n=100, method="inclusive")
    kernels = sum(r["kernels"] for r in rows)
    print(f"{len(files)} files, {kernels} kernels, {whole:.2f} CPU s ({kernels / whole:.1f} kernels/s); "
          f"per kernel median {statistics.median(per_kernel):.2f}, p90 {cuts[89]:.1f}, p99 {cuts[98]:.1f} ms")
    for name, seconds in sorted(SPENT.items(), key=lambda kv: -kv[1]):
        print(f"  {name:10} {seconds:7.2f} s  {100 * seconds / whole:4.1f}%")
    if ns.json:
        ns.json.write_text(json.dumps({"phases": SPENT, "files": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
