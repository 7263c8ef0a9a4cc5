"""Wall time of linting a whole project tree, and its slowest files.

    python benchmarks/bench_lint_corpus.py DIR [DIR ...] [-j N] [--resources estimate|auto|ptxas]
                                           [--json OUT.json] [--findings OUT.jsonl]

Lints every source `cudaperf lint` picks up under the directories (the same code path, worker
processes included) and prints the wall time, file/kernel/finding counts, files that failed,
kernels that hit the analysis budget, and the ten slowest files.  The CPU seconds of the worker
processes are printed beside the wall time: on a machine shared with other jobs the wall time
says little, the CPU time divided by the cores is what an idle machine would take.
docs/lint.md records the figures for HeCBench and the machine they were taken on.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from cudaperf.analysis.analyzer import Options, find_sources
from cudaperf.lint.rules import REGISTRY
from cudaperf.lint.run import lint_one


def timed(path: str, options: Options, codes: list[str]):
    start = time.perf_counter()
    result = lint_one(path, options, codes)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--resources", default="estimate", choices=("estimate", "auto", "ptxas"))
    parser.add_argument("--json", metavar="OUT", help="write the summary as JSON")
    parser.add_argument("--findings", metavar="OUT", help="write every finding as a JSON line (for sampling)")
    ns = parser.parse_args()
    files = [str(p) for p in find_sources(ns.dirs)]
    options, codes = Options(resources=ns.resources), list(REGISTRY)
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=ns.jobs) as pool:
        results = list(pool.map(timed, files, [options] * len(files), [codes] * len(files)))
    wall = time.perf_counter() - start
    # CPU seconds of the workers (and the compilers they ran): what the run costs on an idle machine
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = children.ru_utime + children.ru_stime
    findings = [f for r, _ in results for f in r.findings]
    errors = [r.error for r, _ in results if r.error]
    notes = [n.text() for r, _ in results for n in r.notes if "budget" in n.message]
    slowest = sorted(((t, r[0]) for r, t in results), reverse=True)[:10]
    summary = {
        "machine": f"{platform.node()} {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the end",
        "resources": ns.resources, "jobs": ns.jobs, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
        "files": len(files),
        "errors": len(errors), "budget_notes": len(notes), "findings": len(findings),
        "by_rule": dict(sorted(Counter(f.name for f in findings).items())),
        "slowest": [[round(t, 1), p] for t, p in slowest],
    }
    print(f"{len(files)} files in {wall:.1f} s wall, {cpu:.1f} s CPU ({ns.jobs} jobs, resources={ns.resources}); "
          f"{len(findings)} findings, {len(errors)} files with errors, {len(notes)} budget notes")
    for name, n in summary["by_rule"].items():
        print(f"  {name}: {n}")
    print("slowest files:")
    for t, p in slowest:
        print(f"  {t:7.1f} s  {p}")
    for e in errors[:20]:
        print(f"error: {e}")
    for n in notes[:20]:
        print(f"note: {n}")
    if ns.json:
        with open(ns.json, "w") as out:
            json.dump(summary, out, indent=2)
    if ns.findings:
        with open(ns.findings, "w") as out:
            out.writelines(json.dumps(f.to_json()) + "\n" for f in findings)


if __name__ == "__main__":
    main()
