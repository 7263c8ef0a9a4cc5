"""CUDA-L1's released KernelBench solutions (deepreinforce-ai/CUDA-L1: one model-written `ModelNew` per task
and GPU, 441 distinct over 247 tasks, levels 1-3) timed on the H200 by the engine, as ranking data.

The code is never committed (`benchmarks/cuda_l1.py` materialises it outside the repository); what is
committed is the H200's results (tests/data/h200/cuda_l1/*.jsonl: task, solution, SHA-1 of its code and the
engine's `cudaperf.eval/1` result, or `benchmarks/cuda_l1_plain.py`'s KernelBench-style timing) and the
CPU's estimates of each solution and of each task's reference (`FEATURES`: numbers and kernel names, no
code), made by

    python -m cudaperf.rl.dataset.cuda_l1 features TASKS_DIR OUT.jsonl.gz [TRACES_DIR]

(TRACES_DIR keeps each task's trace, `costmodel.trace.run`'s result, and reuses it when it is there: the
traces are most of the cost, about 4 CPU seconds a task.)

The tasks are split in two before any timing was looked at: `tuning` (the time model's terms and rates,
the ranker's weights and its calibration may be fitted on them) and `held_out` (scored once, after
everything was fixed).  The split is by the SHA-1 of the task's name, fixed: the first hex digit below 8
is tuning.

A solution's time is its time over its reference's, timed beside it (what KernelBench's speed-up is; see
`kb_measured` for why a time relative to the reference is the stable one), and each task's reference is a
member of its group at 1.0: every solution is ordered against the others and against the reference.

`release_samples` orders the same solutions against their references on the GPUs CUDA-L1 released them
for (RTX 3090, A100, H100, H20, L40), by CUDA-L1's own measurements there (`RELEASE_SCORES`), with the
H200-priced estimates: how far an order predicted for the H200 carries to other GPUs, which no machine
here has.  The release's two baselines per task (the reference under a captured CUDA graph, and under
`cudnn.flags`) were timed on the H200 too (`BASELINE_RUNS`, estimated in `BASELINE_FEATURES` from the
task directories `benchmarks/cuda_l1.py baselines` writes): `samples(..., also=...)` adds them."""

from __future__ import annotations

import hashlib
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from .load import Sample, measured, read_jsonl

DATA = measured() / "cuda_l1"
FEATURES = DATA / "rank_features.jsonl.gz"
RELEASE_SCORES = DATA / "release_scores.jsonl"
BASELINE_RUNS = DATA / "baselines"  # the release's baselines timed on the H200 (plain_run*.jsonl)
BASELINE_FEATURES = BASELINE_RUNS / "features.jsonl.gz"  # the CPU's estimates of the release's baselines
CUDA_GRAPH, CUDNN = BASELINES = ("cuda_l1_cuda_graph", "cuda_l1_cudnn")  # the baselines, by the names they get here
REFERENCE = "reference"


def split(task: str) -> str:
    """'tuning' or 'held_out' for a CUDA-L1 task name (`L1_023`), by the SHA-1 of `cuda_l1/<task>`."""
    return "tuning" if int(hashlib.sha1(f"cuda_l1/{task}".encode()).hexdigest()[0], 16) < 8 else "held_out"


# runs timed before the script restored torch's precision defaults per call: a solution's `allow_tf32` or
# `cudnn.benchmark` stayed set for the tasks timed after it; a task timed again since keeps only the new rows
LEAKY_RUNS = ("plain_run1.jsonl", "plain_run2.jsonl")


def relative_times(data: Path = DATA, also: tuple[Path, ...] = ()) -> dict[str, dict[str, float]]:
    """Task -> solution -> its time over its reference's (the median where it was timed more than once),
    of every `correct` solution; `LEAKY_RUNS` count only for tasks no other run timed.  `also`: more
    directories of runs (the baselines' `BASELINE_RUNS`), whose rows join the tasks' after that choice."""
    ratios: dict[tuple[str, str], list[float]] = defaultdict(list)
    leaky: dict[tuple[str, str], list[float]] = defaultdict(list)
    for path in sorted(data.glob("*.jsonl")):
        for r in read_jsonl(path):
            ratio = _ratio(r)
            if ratio is not None:
                (leaky if path.name in LEAKY_RUNS else ratios)[r["task"], r["solution"]].append(ratio)
    clean = {task for task, _ in ratios}
    for (task, solution), values in leaky.items():
        if task not in clean:
            ratios[task, solution] += values
    for path in (p for directory in also for p in sorted(directory.glob("*.jsonl"))):
        for r in read_jsonl(path):
            ratio = _ratio(r)
            if ratio is not None:
                ratios[r["task"], r["solution"]].append(ratio)
    tasks: dict[str, dict[str, float]] = defaultdict(dict)
    for (task, solution), values in sorted(ratios.items()):
        tasks[task][solution] = statistics.median(values)
    return dict(tasks)


def _ratio(r: dict) -> float | None:
    """A timed row's time over its reference's, when it ran correct (None for other rows, and for
    failed_builds.jsonl's, which name no task)."""
    if "task" not in r:
        return None
    if isinstance(r.get("time_ms"), dict):      # the engine's cudaperf.eval/1
        cand, ref = r["time_ms"].get("candidate"), r["time_ms"].get("reference")
        correct = r.get("status") == "correct"
    else:                                        # benchmarks/cuda_l1_plain.py
        cand, ref, correct = r.get("time_ms"), r.get("reference_ms"), r.get("correct") is True
    return cand / ref if correct and cand and ref else None


def rows(tasks_dir: Path, traces: Path | None = None) -> list[dict]:
    """Every solution of every task under `tasks_dir` (`benchmarks/cuda_l1.py materialise`) estimated at its
    task's shapes (one trace per task), and each task's reference (`REFERENCE`: its torch operators' terms).
    What the analyzer or the trace said in words about the code (`unknown` sizes, notes) is kept as a count
    and a flag: the text would quote the solution."""
    from ...costmodel import trace
    from ...costmodel.candidates import estimate, reference_terms
    from .styles_data import estimate_row

    out = []
    for ref in sorted(tasks_dir.glob("*/reference.py")):
        task = ref.parent.name
        paths = sorted(ref.parent.glob("cuda_l1_*.py"))
        codes = [p.read_text() for p in paths]
        kept = traces / f"{task}.json" if traces else None
        try:
            traced = json.loads(kept.read_text()) if kept and kept.exists() else trace.run(ref.read_text(), codes)
        except RuntimeError as exc:        # the reference does not run on meta tensors, or the time limit
            traced = {"error": str(exc)}
        if kept:
            kept.write_text(json.dumps(traced))
        if "error" in traced:
            why = _first_words(traced["error"].replace("the reference could not be traced: ", ""))
            out += [{"task": task, "solution": REFERENCE, "terms": None, "reason": f"not traced: {why}"}]
            out += [{"task": task, "solution": p.stem, "sha1": hashlib.sha1(c.encode()).hexdigest(), "terms": None,
                     "reason": f"the task was not traced: {why}"} for p, c in zip(paths, codes)]
            continue
        ops = traced.get("reference_ops") or []
        terms = reference_terms(ops, traced.get("reference_host"))
        out.append({"task": task, "solution": REFERENCE, "terms": terms, "launches": len(ops), "lines": 0,
                    "reason": None if terms else "the reference runs no operator on meta tensors"})
        for path, code, est in zip(paths, codes, estimate(ref.read_text(), codes, labels=[p.stem for p in paths],
                                                          traced=traced)):
            row = estimate_row(est, code)
            row.update(unknown=len(row["unknown"]), note=row["note"] is not None, reason=_first_words(row["reason"]))
            out.append({"task": task, "solution": path.stem, "sha1": hashlib.sha1(code.encode()).hexdigest(),
                        "torch_only": est.torch_only is not None, **row})
            print(task, path.stem, est.seconds, est.reason, file=sys.stderr)
    return out


def _first_words(reason: str | None) -> str | None:
    """A reason without what it quotes of the code: its kind (`RuntimeError: ...` -> `RuntimeError`), or
    the first 80 characters of one of ours (the time limit, a failed build)."""
    if reason is None:
        return None
    return reason[:80] if reason.startswith(("tracing the candidates took", "its extension cannot")) else \
        reason.split(":", 1)[0][:80]


def _features(paths: tuple[str | Path, ...]) -> dict[tuple[str, str], dict]:
    """Estimate rows by (task, solution), from several files: the first file's row wins (each has the
    task's reference)."""
    feats: dict[tuple[str, str], dict] = {}
    for path in paths:
        for r in read_jsonl(path):
            feats.setdefault((r["task"], r["solution"]), r)
    return feats


def _reference_inputs(ref: dict) -> dict:
    """A task's reference as a group member: its terms, and what a torch-only code has."""
    return {"terms": ref["terms"], "launches": ref["launches"], "lines": 0, "guess": False, "torch_only": True,
            "structural": None}


def _solution_inputs(f: dict, structural: float | None) -> dict:
    return {"terms": f["terms"], "launches": f["launches"], "lines": f["lines"], "guess": f["guess"],
            "torch_only": f["torch_only"], "reason": f["reason"], "structural": structural}


def samples(features: tuple[Path, ...] = (FEATURES,), data: Path = DATA, which: str | None = None,
            references: bool = True, also: tuple[Path, ...] = ()) -> list[Sample]:
    """Measured solutions (of the `which` half, `tuning` or `held_out`, or both) joined with their committed
    estimates, one group per task; `time_ms` is the time over the reference's, and with `references`
    each task's reference is a member at 1.0.  `inputs` as `styles_data.samples` gives them, plus
    `torch_only`; `terms` is None where the solution could not be estimated (`reason`), and the
    reference's `structural` is None (the reward scores solutions).  `features`: estimate files, the
    first file's row winning; `also`: directories of more runs (`BASELINE_RUNS`, with `features` naming
    `BASELINE_FEATURES` too)."""
    from ...rewards.config import RewardConfig
    from .styles_data import row_structural

    config = RewardConfig()
    feats = _features(features)
    found = []
    for task, solutions in relative_times(data, also).items():
        ref = feats.get((task, REFERENCE))
        if (which and split(task) != which) or ref is None or ref["terms"] is None:
            continue
        if references:
            found.append(Sample(f"cuda_l1/{task}", 0, REFERENCE, 1.0, _reference_inputs(ref)))
        for solution, ratio in solutions.items():
            f = feats.get((task, solution))
            if f is None:
                continue
            structural = None if f["terms"] is None else row_structural(f, ref["terms"], config)
            found.append(Sample(f"cuda_l1/{task}", 0, solution, ratio, _solution_inputs(f, structural)))
    return found


def release_gpus(scores: Path = RELEASE_SCORES) -> list[str]:
    """The GPUs CUDA-L1 released solutions for, in the order the scores list them."""
    return list(dict.fromkeys(r["gpu"] for r in read_jsonl(scores)))


def release_samples(gpu: str, which: str | None = None, features: Path = FEATURES,
                    scores: Path = RELEASE_SCORES) -> list[Sample]:
    """Each solution CUDA-L1 released for `gpu` (of the `which` half, or both) against its task's reference,
    timed by CUDA-L1 on that GPU: a group of two per solution, the solution at 1 / its score and the
    reference at 1.0; inputs as `samples` gives them (no structural score).  The baselines' scores are
    left out (`baseline_scores` says why)."""
    feats = _features((features,))
    found = []
    for n, row in enumerate(read_jsonl(scores)):
        task = row["task"]
        ref, f = feats.get((task, REFERENCE)), feats.get((task, row["solution"]))
        if row["gpu"] != gpu or row["solution"] in BASELINES or (which and split(task) != which) or \
                ref is None or ref["terms"] is None or f is None or row["score"] <= 0:
            continue
        found += [Sample(f"cuda_l1/{task}", n, row["solution"], 1.0 / row["score"], _solution_inputs(f, None)),
                  Sample(f"cuda_l1/{task}", n, REFERENCE, 1.0, _reference_inputs(ref))]
    return found


def baseline_scores(scores: Path = RELEASE_SCORES, features: Path = BASELINE_FEATURES) -> dict[str, tuple]:
    """Per GPU: of the release's cuDNN baselines (the reference's own operators under `cudnn.flags`) whose
    GPU work the CPU estimates within 10% of their reference's (every time term but the host's and the
    total), how many, CUDA-L1's median score of them, and the share it scores >= 1.25x.  A code that runs
    the reference's operators, and adds host time, cannot be twice as fast as the reference: what such
    scores show is a difference in how the reference was timed."""
    def same_gpu_work(ours: dict, reference: dict) -> bool:
        gpu = (set(ours) | set(reference)) - {"host", "total"}
        return all(abs(ours.get(t, 0.0) - reference.get(t, 0.0)) <= 0.1 * max(ours.get(t, 0.0), reference.get(t, 0.0))
                   for t in gpu)

    feats = _features((features,))
    alike = {task for (task, name), r in feats.items() if name == CUDNN and r["terms"] and
             same_gpu_work(r["terms"], feats[task, REFERENCE]["terms"])}
    found: dict[str, list[float]] = defaultdict(list)  # by GPU, in the order the scores list them
    for r in read_jsonl(scores):
        if r["solution"] == CUDNN and r["task"] in alike:
            found[r["gpu"]].append(r["score"])
    return {gpu: (len(v), statistics.median(v), sum(s >= 1.25 for s in v) / len(v)) for gpu, v in found.items()}


def main(argv: list[str] | None = None) -> int:
    import gzip

    argv = sys.argv[1:] if argv is None else argv
    if len(argv) not in (3, 4) or argv[0] != "features":
        print("usage: python -m cudaperf.rl.dataset.cuda_l1 features TASKS_DIR OUT.jsonl.gz [TRACES_DIR]",
              file=sys.stderr)
        return 2
    with gzip.open(argv[2], "wt") as f:
        for row in rows(Path(argv[1]), Path(argv[3]) if len(argv) == 4 else None):
            f.write(json.dumps(row, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
