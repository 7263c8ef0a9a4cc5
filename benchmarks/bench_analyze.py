"""Speed of `cudaperf analyze`: per kernel, whole process, and how cost grows with input size.

    python benchmarks/bench_analyze.py [--json OUT.json] [CORPUS_DIR ...]
    python benchmarks/bench_analyze.py --json tests/data/cpu/bench_analyze.json   # the figures of docs/performance.md

Prints a markdown table (docs/performance.md records the figures and the machine).  Defaults
to the project's own kernel corpora; pass other directories to measure those.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
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
            start = time.perf_counter()
            try:
                count = len(analyze_file(path, ESTIMATE).kernels)
            except Exception:  # unreadable inputs are part of some corpora
                count = 0
            best = min(best, time.perf_counter() - start)
        files += 1
        if count:
            kernels += count
            samples.append(best * 1000 / count)
    return samples, kernels, files


def whole_process(corpora: list[Path]) -> tuple[int, float]:
    """Kernels reported and wall seconds of one `cudaperf analyze ... --format json` process."""
    dirs = [str(p) for p in corpora if p.exists()]
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "cudaperf", "analyze", *dirs, "--resources", "estimate",
                           "--format", "json"], capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    doc = json.loads(proc.stdout)
    return sum(len(f["kernels"]) for f in doc["files"]), elapsed


def scaling_by_size(lines_targets=(1000, 2500, 5000, 10000)) -> list[tuple[int, int, float]]:
    out = []
    per_kernel = KERNEL.count("\n")
    for target in lines_targets:
        count = max(1, target // per_kernel)
        code = "".join(KERNEL.format(i=i) for i in range(count))
        start = time.perf_counter()
        report = analyze_source(code, "generated.cu", ESTIMATE)
        out.append((code.count("\n"), len(report.kernels), time.perf_counter() - start))
    return out


def scaling_by_depth(depths=(25, 50, 100, 200)) -> list[tuple[int, float]]:
    out = []
    for depth in depths:
        opens = "".join(f"if (threadIdx.x > {d}) {{ for (int k{d} = 0; k{d} < 2; ++k{d}) {{ "
                        for d in range(depth // 2))
        code = ("__global__ void deep(float* a) {" + opens + "a[threadIdx.x] += 1.f;" + "} }" * (depth // 2) + "}")
        start = time.perf_counter()
        analyze_source(code, "deep.cu", ESTIMATE)
        out.append((depth, time.perf_counter() - start))
    return out


def parse_throughput(corpus: Path = ROOT / "benchmarks" / "corpus" / "src") -> dict:
    """tree-sitter-cuda alone over the recall corpus concatenated into one source, best of 3."""
    from cudaperf.analysis import parse

    data = b"\n".join(p.read_bytes() for p in find_sources([corpus]))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        parse.parse(data)
        best = min(best, time.perf_counter() - start)
    return {"bytes": len(data), "seconds": best, "mb_per_s": len(data) / 1e6 / best}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--json", type=Path, help="also write the figures here")
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
        "corpora": [str(p) for p in corpora if p.exists()],
        "files": files, "kernels": kernels,
        "per_kernel_ms": {"median": statistics.median(samples), "p90": statistics.quantiles(samples, n=10)[-1],
                          "max": max(samples)},
        "whole_process": {"kernels": process_kernels, "seconds": process_s,
                          "kernels_per_s": process_kernels / process_s},
        "by_file_size": [{"lines": n, "kernels": k, "seconds": s} for n, k, s in sizes],
        "by_nesting_depth": [{"depth": d, "seconds": s} for d, s in depths],
        "parse": parsing,
    }
    print(f"machine: {results['machine']}")
    print(f"corpora: {', '.join(results['corpora'])}")
    print("\n| measure | value |\n| --- | --- |")
    print(f"| files / kernels | {files} / {kernels} |")
    pk = results["per_kernel_ms"]
    print(f"| ms per kernel (median / p90 / max) | {pk['median']:.2f} / {pk['p90']:.2f} / {pk['max']:.2f} |")
    wp = results["whole_process"]
    print(f"| whole process | {wp['kernels']} kernels in {wp['seconds']:.2f} s = {wp['kernels_per_s']:.0f} kernels/s |")
    print("\n| file lines | kernels | seconds | ms per kernel |\n| --- | --- | --- | --- |")
    for n, k, s in sizes:
        print(f"| {n} | {k} | {s:.3f} | {s * 1000 / k:.2f} |")
    print("\n| nesting depth | seconds |\n| --- | --- |")
    for d, s in depths:
        print(f"| {d} | {s:.3f} |")
    if ns.json:
        ns.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
