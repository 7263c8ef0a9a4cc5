"""Speed of `cudaperf analyze`: per kernel, whole process, and how cost grows with input size.

    python benchmarks/bench_analyze.py [--json OUT.json] [CORPUS_DIR ...]
    python benchmarks/bench_analyze.py --json tests/data/cpu/bench_analyze.json --write   # docs/performance.md

Prints a markdown table (docs/performance.md records the figures and the machine).  Defaults
to the project's own kernel corpora; pass other directories to measure those.  Times are CPU
seconds (process time; for the whole process, the child's user + system time), which the load of a
shared machine does not inflate the way it inflates wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from cudaperf.analysis.analyzer import Options, analyze_file, analyze_source, find_sources

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPORA = [ROOT / "tests" / "corpus" / "kernels", ROOT / "tests" / "validation" / "kernels",
                   ROOT / "benchmarks" / "corpus" / "src"]

ESTIMATE = Options(resources="estimate")  # the analyzer alone; ptxas time is measured separately
KERNEL = """
__global__ void stencil_{i}(const float* __restrict__ in, float* __restrict__ out, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1) {{
        float acc = 0.f;
        for (int k = -1; k <= 1; ++k) acc += in[i + k];
        out[i] = acc / 3.f;
    }}
}}
"""


def per_kernel_ms(corpora: list[Path], repeats: int = 3) -> tuple[list[float], int, int]:
    """Best-of-`repeats` analysis time of each file divided by its kernel count."""
    samples, kernels, files = [], 0, 0
    for path in find_sources(p for p in corpora if p.exists()):
        best, count = float("inf"), 0
        for _ in range(repeats):
            start = time.process_time()
            try:
                count = len(analyze_file(path, ESTIMATE).kernels)
            except Exception:  # unreadable inputs are part of some corpora
                count = 0
            best = min(best, time.process_time() - start)
        files += 1
        if count:
            kernels += count
            samples.append(best * 1000 / count)
    return samples, kernels, files


def whole_process(corpora: list[Path]) -> tuple[int, float]:
    """Kernels reported and CPU seconds of one `cudaperf analyze ... --format json` process."""
    dirs = [str(p) for p in corpora if p.exists()]

    def children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    start = children()
    proc = subprocess.run([sys.executable, "-m", "cudaperf", "analyze", *dirs, "--resources", "estimate",
                           "--format", "json"], capture_output=True, text=True)
    elapsed = children() - start
    doc = json.loads(proc.stdout)
    return sum(len(f["kernels"]) for f in doc["files"]), elapsed


def scaling_by_size(lines_targets=(1000, 2500, 5000, 10000)) -> list[tuple[int, int, float]]:
    out = []
    per_kernel = KERNEL.count("\n")
    for target in lines_targets:
        count = max(1, target // per_kernel)
        code = "".join(KERNEL.format(i=i) for i in range(count))
        start = time.process_time()
        report = analyze_source(code, "generated.cu", ESTIMATE)
        out.append((code.count("\n"), len(report.kernels), time.process_time() - start))
    return out


def scaling_by_depth(depths=(25, 50, 100, 200)) -> list[tuple[int, float]]:
    out = []
    for depth in depths:
        opens = "".join(f"if (threadIdx.x > {d}) {{ for (int k{d} = 0; k{d} < 2; ++k{d}) {{ "
                        for d in range(depth // 2))
        code = ("__global__ void deep(float* a) {" + opens + "a[threadIdx.x] += 1.f;" + "} }" * (depth // 2) + "}")
        start = time.process_time()
        analyze_source(code, "deep.cu", ESTIMATE)
        out.append((depth, time.process_time() - start))
    return out


def parse_throughput(corpus: Path = ROOT / "benchmarks" / "corpus" / "src") -> dict:
    """tree-sitter-cuda alone over the recall corpus concatenated into one source, best of 3."""
    from cudaperf.analysis import parse

    data = b"\n".join(p.read_bytes() for p in find_sources([corpus]))
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        parse.parse(data)
        best = min(best, time.process_time() - start)
    return {"bytes": len(data), "seconds": best, "mb_per_s": len(data) / 1e6 / best}


DOC = ROOT / "docs" / "performance.md"
BEGIN, END = "<!-- bench_analyze.py: begin -->", "<!-- bench_analyze.py: end -->"
NCU_ANCHOR_S = 3.8  # Nsight Compute, 3 metrics, one kernel, whole process on the H200 host (docs/anchors.md)


def markdown(results: dict) -> str:
    """The figures docs/performance.md publishes, from one run's results."""
    m, pk, wp, parsing = results["machine"], results["per_kernel_ms"], results["whole_process"], results["parse"]
    lines = [f"Machine: {m['cpus']} cores, {m['processor']}, {m['platform']}, Python {m['python']}; load average "
             f"{m['load_average_1_5_15'][0]:.1f} when measured (a shared machine: times are CPU seconds).  "
             f"{results['files']} files and {results['kernels']:,} kernels.", "",
             "| measure | value |", "| --- | --- |",
             f"| CPU ms per kernel, median / p90 / max (file time / kernels in the file, best of 3) | "
             f"{pk['median']:.2f} / {pk['p90']:.2f} / {pk['max']:.1f} |",
             f"| whole process, `cudaperf analyze DIRS --resources estimate --format json` | {wp['kernels']:,} kernels "
             f"in {wp['seconds']:.2f} CPU s = **{wp['kernels_per_s']:.0f} kernels/s** (interpreter start and imports "
             f"included) |",
             f"| tree-sitter-cuda alone, the recall corpus as one {parsing['bytes'] / 1e6:.1f} MB source | "
             f"{parsing['mb_per_s']:.1f} MB/s |",
             f"| one kernel (median) against one Nsight Compute measurement ({NCU_ANCHOR_S} s) | about "
             f"{round(NCU_ANCHOR_S / (pk['median'] / 1000), -2):,.0f}x cheaper, with no GPU |", "",
             "File size (a 7-line stencil kernel repeated):", "",
             "| file lines | kernels | CPU seconds | ms per kernel |", "| --- | --- | --- | --- |"]
    lines += [f"| {r['lines']:,} | {r['kernels']:,} | {r['seconds']:.3f} | {r['seconds'] * 1000 / r['kernels']:.2f} |"
              for r in results["by_file_size"]]
    lines += ["", "Nesting depth (alternating `if` and 2-iteration `for`):", "",
              "| depth | CPU seconds |", "| --- | --- |"]
    lines += [f"| {r['depth']} | {r['seconds']:.3f} |" for r in results["by_nesting_depth"]]
    return "\n".join(lines) + "\n"


def write(text: str) -> None:
    doc = DOC.read_text()
    head, _, rest = doc.partition(BEGIN + "\n")
    _, _, tail = rest.partition(END)
    DOC.write_text(head + BEGIN + "\n" + text + END + tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--write", action="store_true", help=f"replace the figures in {DOC.relative_to(ROOT)}")
    ns = parser.parse_args()
    corpora = ns.corpora or DEFAULT_CORPORA

    samples, kernels, files = per_kernel_ms(corpora)
    process_kernels, process_s = whole_process(corpora)
    sizes = scaling_by_size()
    depths = scaling_by_depth()
    parsing = parse_throughput()
    results = {
        "machine": {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
                    "cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average_1_5_15": list(os.getloadavg())},
        "corpora": [str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p) for p in corpora if p.exists()],
        "files": files, "kernels": kernels,
        "per_kernel_ms": {"median": statistics.median(samples), "p90": statistics.quantiles(samples, n=10)[-1],
                          "max": max(samples)},
        "whole_process": {"kernels": process_kernels, "seconds": process_s,
                          "kernels_per_s": process_kernels / process_s},
        "by_file_size": [{"lines": n, "kernels": k, "seconds": s} for n, k, s in sizes],
        "by_nesting_depth": [{"depth": d, "seconds": s} for d, s in depths],
        "parse": parsing,
    }
    print(markdown(results), end="")
    if ns.json:
        ns.json.write_text(json.dumps(results, indent=2) + "\n")
    if ns.write:
        write(markdown(results))

if __name__ == "__main__":
    main()
