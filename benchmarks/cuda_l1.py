"""Model-written KernelBench solutions from deepreinforce-ai/CUDA-L1, timed on a GPU by the engine.

CUDA-L1 released one optimised `ModelNew` per KernelBench task (levels 1-3) for each of five GPUs
(3090, A100, H100, H20, L40): 441 distinct solutions over 247 tasks, 138 of them with a
`load_inline` CUDA extension, the rest torch rewrites.  The code is fetched, never committed: this
script writes it into task directories outside the repository, and the results it commits name each
solution by task, source GPUs and the SHA-1 of its code.

    python3 benchmarks/cuda_l1.py materialise CUDA_L1_GIT_DIR OUT_DIR     (a clone or a bare mirror)
    python3 benchmarks/cuda_l1.py baselines CUDA_L1_GIT_DIR OUT_DIR
    python3 benchmarks/cuda_l1.py scores CUDA_L1_GIT_DIR tests/data/h200/cuda_l1/release_scores.jsonl
    python3 benchmarks/cuda_l1.py time TASKS_DIR RESULTS.jsonl [--seconds S] [--skip DONE.jsonl ...]

`time` runs every solution once through the engine with the static gate off (the ranker wants the
times of everything that runs correctly; the gate's verdict is a static fact, recomputed on any
machine), CUDA solutions first, and writes each `cudaperf.eval/1` result as soon as it is known, with
`task`, `solution` and `sha1` added, so a run cut short keeps what it finished.

`scores` keeps what CUDA-L1 measured itself, on the GPU each solution was released for: the
reference's time over the code's, on that GPU, of the released solution (`score_default`) and of
the release's two baselines (`score_cuda_graph`, `score_cudnn`), per task, GPU and code (named as
`materialise` and `baselines` name them, with the SHA-1 of the release's code).  No code is written.
`baselines` writes those two baselines into task directories, as `materialise` does the solutions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from cudaperf.rl.dataset.cuda_l1 import CUDA_GRAPH, CUDNN

GPUS = ("3090", "a100", "h100", "h20", "l40")


def _read_release(git_dir: Path) -> dict[str, list[dict]]:
    """Per GPU, one JSON object per line, as CUDA-L1 ships `optimized_cuda_code/<gpu>.json`."""
    release = {}
    for gpu in GPUS:
        text = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"HEAD:optimized_cuda_code/{gpu}.json"],
                              capture_output=True, text=True, check=True).stdout
        release[gpu] = [json.loads(line) for line in text.splitlines() if line.strip()]
    return release


def _task(row: dict) -> str:
    return f"L{int(row['level_id'])}_{int(row['task_id']):03d}"


def _solutions(release: dict[str, list[dict]]) -> tuple[dict[str, dict[str, list[str]]], dict[str, str]]:
    """Per task, each distinct solution's code with the GPUs it was released for; each task's reference."""
    solutions: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    references: dict[str, str] = {}
    for gpu, rows in release.items():
        for row in rows:
            references.setdefault(_task(row), row["ref_code"])
            if (row.get("custom_code") or "").strip():
                solutions[_task(row)][row["custom_code"]].append(gpu)
    return solutions, references


def _name(gpus: list[str]) -> str:
    return f"cuda_l1_{'_'.join(gpus)}"


def materialise(git_dir: Path, out: Path) -> int:
    """OUT/L<level>_<task>/reference.py and one `<gpus>.py` per distinct solution."""
    solutions, references = _solutions(_read_release(git_dir))
    count = 0
    for task, codes in sorted(solutions.items()):
        directory = out / task
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "reference.py").write_text(references[task])
        for code, gpus in codes.items():
            (directory / f"{_name(gpus)}.py").write_text(code)
            count += 1
    print(f"{count} solutions over {len(solutions)} tasks in {out}")
    return 0


# the release's other codes: their field, the field of their score, and the name the dataset reads them by
BASELINES = (("cuda_graph_code", "score_cuda_graph", CUDA_GRAPH), ("cudnn_code", "score_cudnn", CUDNN))


def _baselines(release: dict[str, list[dict]]) -> dict[str, dict[str, str]]:
    """Per task, CUDA-L1's two baselines (its reference under a captured CUDA graph, and with cuDNN's
    tuning on: `class Model`, the same code for every GPU), by the solution name they get here."""
    found: dict[str, dict[str, str]] = defaultdict(dict)
    for rows in release.values():
        for row in rows:
            for field, _, name in BASELINES:
                code = row.get(field) or ""
                if "class Model" in code:
                    found[_task(row)].setdefault(name, code)
    return found


def materialise_baselines(git_dir: Path, out: Path) -> int:
    """OUT/L<level>_<task>/reference.py and the task's two baselines, each with `ModelNew = Model` added
    (the name a solution's class has), as `cuda_l1_cuda_graph.py` and `cuda_l1_cudnn.py`."""
    release = _read_release(git_dir)
    _, references = _solutions(release)
    count = 0
    for task, codes in sorted(_baselines(release).items()):
        directory = out / task
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "reference.py").write_text(references[task])
        for name, code in codes.items():
            (directory / f"{name}.py").write_text(code + "\n\nModelNew = Model\n")
            count += 1
    print(f"{count} baselines over {len(list(out.iterdir()))} tasks in {out}")
    return 0


def release_scores(git_dir: Path, out: Path) -> int:
    """One row per task, GPU and code CUDA-L1 timed there: its own `score` (the reference's time over the
    code's, on that GPU) of the released solution (`score_default`) and of the two baselines.  About 16
    rows per GPU carry a score with the code `None`: no solution, so no row."""
    release = _read_release(git_dir)
    solutions, _ = _solutions(release)
    rows = []
    for gpu, released in release.items():
        for row in released:
            task, code = _task(row), row.get("custom_code") or ""
            timed = [(_name(solutions[task][code]), code, row.get("score_default"))] if "class ModelNew" in code else []
            timed += [(name, row.get(field) or "", row.get(score))
                      for field, score, name in BASELINES if "class Model" in (row.get(field) or "")]
            rows += [{"task": task, "gpu": gpu, "solution": name, "sha1": hashlib.sha1(text.encode()).hexdigest(),
                      "score": score} for name, text, score in timed if score is not None]
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"{len(rows)} scores in {out}")
    return 0


def _jobs(root: Path, skip: set[str]) -> list[tuple[Path, Path]]:
    jobs = [(ref, p) for ref in sorted(root.glob("*/reference.py")) for p in sorted(ref.parent.glob("cuda_l1_*.py"))
            if hashlib.sha1(p.read_bytes()).hexdigest() not in skip]
    return sorted(jobs, key=lambda job: "load_inline" not in job[1].read_text())     # CUDA solutions first


def time_all(root: Path, results: Path, seconds: float, skip_files: list[Path]) -> int:
    from cudaperf.rewards.execution import Evaluator, Options, load_candidate, load_task

    skip = {json.loads(line)["sha1"] for f in skip_files for line in f.read_text().splitlines() if line.strip()}
    jobs = _jobs(root, skip)
    deadline = time.monotonic() + seconds
    started = time.perf_counter()
    results.parent.mkdir(parents=True, exist_ok=True)
    with results.open("a") as stream:
        def progress(done: int, total: int, result) -> None:
            path = Path(result.candidate)
            row = {"task": path.parent.name, "solution": path.stem, "sha1": hashlib.sha1(path.read_bytes()).hexdigest(),
                   **result.to_json()}
            stream.write(json.dumps(row) + "\n")
            stream.flush()
            print(f"[{time.perf_counter() - started:6.1f} s] {done}/{total} {path.parent.name}/{path.stem:28} "
                  f"{result.status:13} {result.speedup} {result.reason[:80]}", flush=True)

        # Batches, so that the run stops between them when its time is up rather than mid-candidate.
        with Evaluator(Options(gate=False, spare_workers=6)) as evaluator:
            for start in range(0, len(jobs), 32):
                if time.monotonic() > deadline:
                    print(f"time is up: {len(jobs) - start} solutions not run")
                    break
                batch = jobs[start:start + 32]
                evaluator.evaluate_many([load_task(ref) for ref, _ in batch], [load_candidate(c) for _, c in batch],
                                        progress=progress)
    print(f"{len(jobs)} jobs, {time.perf_counter() - started:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("materialise")
    make.add_argument("git_dir", type=Path)
    make.add_argument("out", type=Path)
    make_baselines = commands.add_parser("baselines")
    make_baselines.add_argument("git_dir", type=Path)
    make_baselines.add_argument("out", type=Path)
    scores = commands.add_parser("scores")
    scores.add_argument("git_dir", type=Path)
    scores.add_argument("out", type=Path)
    run = commands.add_parser("time")
    run.add_argument("tasks", type=Path)
    run.add_argument("results", type=Path)
    run.add_argument("--seconds", type=float, default=480.0)
    run.add_argument("--skip", type=Path, nargs="*", default=[])
    args = parser.parse_args(argv)
    if args.command == "materialise":
        return materialise(args.git_dir, args.out)
    if args.command == "baselines":
        return materialise_baselines(args.git_dir, args.out)
    if args.command == "scores":
        return release_scores(args.git_dir, args.out)
    return time_all(args.tasks, args.results, args.seconds, args.skip)


if __name__ == "__main__":
    sys.exit(main())
