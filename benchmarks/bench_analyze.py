"""Speed of `cudaperf analyze`: per kernel, whole process, the structural reward, and how cost grows.

    python benchmarks/bench_analyze.py [--json OUT.json] [--sample N] [CORPUS_DIR ...]
    python benchmarks/bench_analyze.py --fetch                      # pinned HeCBench src/*-cuda + cuda-samples
    python benchmarks/bench_analyze.py --fetch DIR --from HeCBench=GIT_MIRROR   # another cache, a local mirror
    python benchmarks/bench_analyze.py --fetch --json tests/data/cpu/bench_analyze.json --write  # docs/performance.md

Prints a markdown table (docs/performance.md records the figures and the machine).  Defaults
to the project's own kernel corpora (no network); pass directories to measure those.  The issue-28
corpus is HeCBench's `src/*-cuda` and cuda-samples: `--fetch [DIR]` takes them at the commits
pinned in benchmarks/corpora.py, fetched into the cache DIR (default ~/.cache/cudaperf/corpora)
when missing and checksummed before every run; nothing fetched belongs in this repository.
`--sample N` measures N files spread evenly over the sorted list (each still analysed inside its own
directory, so launches in sibling files count).

Times are CPU seconds (process time; for the whole process, the child's user + system time),
which the load of a shared machine does not inflate the way it inflates wall time.  Kernels
reported: the kernels the whole process reports over the kernels the files define (the analyzer's
definitions; a file it cannot read counts its `__global__` functions).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import corpora

from cudaperf.analysis.analyzer import Options, analyze_file, analyze_source, find_sources
from cudaperf.analysis.source import SourceError

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPORA = [ROOT / "tests" / "corpus" / "kernels", ROOT / "tests" / "validation" / "kernels",
                   ROOT / "tests" / "recall_fixtures" / "src"]

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


def sources(corpora: list[Path], sample: int | None) -> list[Path]:
    """The files the analyzer picks in `corpora`; `sample` of them spread evenly when given."""
    files = list(find_sources(p for p in corpora if p.exists()))
    if sample and sample < len(files):
        files = [files[i * len(files) // sample] for i in range(sample)]
    return files


def labels(directories: list[Path]) -> list[str]:
    """How the results name the directories given."""
    found = [p for p in directories if p.exists()]
    if len(found) > 4:
        return [f"{len(found)} directories"]
    return [str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p) for p in found]


def per_kernel_ms(files: list[Path], repeats: int) -> tuple[list[float], int, int]:
    """Best-of-`repeats` analysis time of each file divided by its kernel count; the kernels
    reported and the kernels defined."""
    samples, reported, defined = [], 0, 0
    for path in files:
        best, count, names = float("inf"), 0, 0
        for _ in range(repeats):
            start = time.process_time()
            try:
                report = analyze_file(path, ESTIMATE)
                count, names = len(report.kernels), len(set(report.defined))
            except SourceError:  # unreadable inputs are part of some corpora
                count, names = 0, len(re.findall(rb"__global__", path.read_bytes()))
            best = min(best, time.process_time() - start)
        reported += count
        defined += max(names, count)
        if count:
            samples.append(best * 1000 / count)
    return samples, reported, defined


def whole_process(files: list[Path], corpora: list[Path], jobs: int = 1) -> tuple[int, float, float]:
    """Kernels reported, CPU seconds (the workers' too) and wall seconds of one `cudaperf analyze
    ... --format json -j JOBS` process over the corpora (over the files themselves when sampled)."""
    every = list(find_sources(p for p in corpora if p.exists()))
    paths = [str(p) for p in corpora if p.exists()] if files == every else [str(f) for f in files]

    def children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    start, wall = children(), time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "cudaperf", "analyze", *paths, "--resources", "estimate",
                           "--format", "json", "-j", str(jobs)], capture_output=True, text=True)
    elapsed, wall = children() - start, time.perf_counter() - wall
    doc = json.loads(proc.stdout)
    return sum(len(f["kernels"]) for f in doc["files"]), elapsed, wall


def structural_ms(repeats: int = 3) -> dict:
    """The structural reward per completion of tests/reward_families (bench_rewards.structural):
    with the default weights (every analysis runs), and weighting coalescing and occupancy only
    (the memory analysis alone runs: no branches, no races)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_rewards import structural

    from cudaperf.rewards import RewardConfig

    lean = RewardConfig(weights={"coalescing": 0.5, "occupancy": 0.5}, penalties={})
    return {**structural(repeats), "coalescing_occupancy": structural(repeats, lean)}


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


RETIRED_PARSE_SOURCE = "the retired stand-in recall corpus (benchmarks/corpus)"  # what runs before issue 31 parsed


def parse_throughput(files: list[Path], label: str) -> dict:
    """tree-sitter-cuda alone over the measured files concatenated into one source, best of 3."""
    from cudaperf.analysis import parse

    data = b"\n".join(p.read_bytes() for p in files)
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        parse.parse(data)
        best = min(best, time.process_time() - start)
    return {"bytes": len(data), "seconds": best, "mb_per_s": len(data) / 1e6 / best, "source": label}


DOC = ROOT / "docs" / "performance.md"
BEGIN, END = "<!-- bench_analyze.py: begin -->", "<!-- bench_analyze.py: end -->"
NCU_ANCHOR_S = 3.8  # Nsight Compute, 3 metrics, one kernel, whole process on the H200 host (docs/anchors.md)


def markdown(results: dict) -> str:
    """The figures docs/performance.md publishes, from one run's results."""
    m, pk, wp, parsing = results["machine"], results["per_kernel_ms"], results["whole_process"], results["parse"]
    reward, wj = results["structural_reward_ms"], results["whole_process_jobs"]
    lean = reward["coalescing_occupancy"]
    lines = [f"Machine: {m['cpus']} cores, {m['processor']}, {m['platform']}, Python {m['python']}; load average "
             f"{m['load_average_1_5_15'][0]:.1f} when measured (a shared machine: times are CPU seconds).  "
             f"{results['files']:,} files ({', '.join(results['corpora'])}) defining {results['kernels']:,} kernels.",
             "", "| measure | value |", "| --- | --- |",
             f"| whole process, `cudaperf analyze DIRS --resources estimate --format json` | {wp['kernels']:,} kernels "
             f"in {wp['seconds']:.2f} CPU s ({wp['wall_seconds']:.2f} s wall) = **{wp['kernels_per_s']:.0f} "
             f"kernels/s** (interpreter start and imports included) |",
             f"| the same with `-j {wj['jobs']}` (a worker per core) | {wj['kernels']:,} kernels in "
             f"{wj['wall_seconds']:.2f} s wall ({wj['seconds']:.2f} CPU s) = **{wj['kernels_per_wall_s']:.0f} "
             f"kernels per wall second** |",
             f"| kernels reported | {wp['kernels']:,} of {results['kernels']:,} = "
             f"**{100 * wp['kernels'] / results['kernels']:.1f}%** |",
             f"| CPU ms per kernel, median / p90 / p99 / max (file time / kernels in the file, best of "
             f"{pk['repeats']}) | **{pk['median']:.2f}** / {pk['p90']:.2f} / **{pk['p99']:.2f}** / {pk['max']:.1f} |",
             f"| structural reward, CPU ms per completion, median / p90 / max ({reward['completions']} completions of "
             f"tests/reward_families, {reward['calls']} calls; wall median {reward['median_ms']:.2f}) | "
             f"**{reward['median_cpu_ms']:.2f}** / {reward['p90_cpu_ms']:.2f} / {reward['max_cpu_ms']:.2f} |",
             f"| the same weighting coalescing and occupancy only (no branch or race analysis) | "
             f"**{lean['median_cpu_ms']:.2f}** / {lean['p90_cpu_ms']:.2f} / {lean['max_cpu_ms']:.2f} |",
             f"| tree-sitter-cuda alone, {parsing.get('source', RETIRED_PARSE_SOURCE)} as one "
             f"{parsing['bytes'] / 1e6:.1f} MB source | "
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
    parser.add_argument("--fetch", type=Path, nargs="?", const=corpora.default_cache(), metavar="DIR",
                        help="measure HeCBench and cuda-samples at their pinned commits, fetched into the cache "
                        f"DIR when missing (default {corpora.default_cache()})")
    parser.add_argument("--from", dest="sources", action="append", default=[], metavar="NAME=GIT",
                        help="with --fetch: fetch corpus NAME from this git directory or URL (a local mirror)")
    parser.add_argument("--sample", type=int, metavar="N", help="only N files, spread evenly")
    parser.add_argument("--repeats", type=int, default=1, help="per-kernel times: best of this many (default 1)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--write", action="store_true", help=f"replace the figures in {DOC.relative_to(ROOT)}")
    ns = parser.parse_args()
    pinned = corpora.directories(ns.fetch, corpora.parse_sources(ns.sources)) if ns.fetch else []
    measured = ns.corpora + pinned or DEFAULT_CORPORA

    files = sources(measured, ns.sample)
    process_kernels, process_s, process_wall = whole_process(files, measured)
    jobs = os.cpu_count() or 1
    parallel_kernels, parallel_s, parallel_wall = whole_process(files, measured, jobs)
    samples, reported, defined = per_kernel_ms(files, ns.repeats)
    reward = structural_ms()
    sizes = scaling_by_size()
    depths = scaling_by_depth()
    parsing = parse_throughput(files, "the measured files")
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    results = {
        "machine": {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
                    "cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average_1_5_15": list(os.getloadavg())},
        "corpora": labels(ns.corpora or ([] if pinned else DEFAULT_CORPORA)) + (corpora.labels() if pinned else []),
        "files": len(files), "kernels": defined,
        "per_kernel_ms": {"repeats": ns.repeats, "kernels": reported, "median": statistics.median(samples),
                          "p90": cuts[89], "p99": cuts[98], "max": max(samples)},
        "whole_process": {"kernels": process_kernels, "seconds": process_s, "wall_seconds": process_wall,
                          "kernels_per_s": process_kernels / process_s},
        "whole_process_jobs": {"jobs": jobs, "kernels": parallel_kernels, "seconds": parallel_s,
                               "wall_seconds": parallel_wall, "kernels_per_wall_s": parallel_kernels / parallel_wall},
        "structural_reward_ms": reward,
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
