"""The KernelBench-style corpora measured on an H200 or an H100 (tests/kb_llm, tests/kb_heldout: candidates
written the way LLMs write them, for the gate, never used to design or fit the ranker; tests/kb_fresh*), as
ranking data.

What a candidate's time is: KernelBench times a candidate and its reference side by side; at these
sizes (most under 0.2 ms) the machine's state moves both together.  Between two runs of the same corpus
on the same H200, the order of two candidates' own times at >= 1.25x agrees only 66% of the time,
while the order of their times relative to the reference timed with them (1 / speedup) agrees 98%.
So a candidate's measured time here is its time over its reference's, the median over the runs that
measured it.

    python -m cudaperf.rl.dataset.kb_measured features OUT.jsonl.gz [CORPUS]   # CPU estimates, CORPUS of CORPORA

The features file holds, per candidate of `candidates(corpus)`, the estimate's summed terms and the
baselines' counts, as `styles_data` does for the model-style candidates."""

from __future__ import annotations

import math
import re
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from .load import DEFAULT, Sample, read_jsonl

ROOT = DEFAULT.parents[3]
DATA = ROOT / "tests" / "data"
H200 = DATA / "h200"


@dataclass(frozen=True)
class Corpus:
    """A corpus of task directories, the engine's runs of it on one GPU (one entry per run: the files it
    wrote, under tests/data/<gpu>/) and the CPU estimates committed for it."""
    task_dirs: tuple[str, ...]
    runs: dict[str, list[str]]
    features: Path

    @property
    def timed(self) -> bool:
        """Whether a GPU has timed it yet (a run file is committed)."""
        return any((DATA / f).exists() for files in self.runs.values() for f in files)


KB = Corpus(("tests/kb_llm", "tests/kb_heldout"),
            {"kb_llm run 1": ["h200/kb_llm/run1.jsonl"],
             "kb_llm run 2": ["h200/kb_llm/run2.jsonl", "h200/kb_llm/heldout_layernorm.jsonl"],
             "heldout": ["h200/heldout/heldout_gelu_scale.jsonl", "h200/heldout/heldout_layernorm.jsonl",
                         "h200/heldout/heldout_matmul.jsonl", "h200/heldout/heldout_softmax.jsonl"]},
            H200 / "kb_llm" / "rank_features.jsonl.gz")
# tests/kb_fresh and tests/kb_fresh2: written (2026-12-04) by helpers that never saw the ranker, timed at
# KernelBench-like sizes and its tolerance, each scored once before anything was changed for it; the
# fast path's interpreter was then extended reading kb_fresh's misses (it is tuned on), kb_fresh2 was not
FRESH = Corpus(("tests/kb_fresh",), {f"kb_fresh run {i}": [f"h200/kb_fresh/run{i}.jsonl"] for i in range(1, 7)},
               H200 / "kb_fresh" / "rank_features.jsonl.gz")
FRESH2 = Corpus(("tests/kb_fresh2",), {f"kb_fresh2 run {i}": [f"h200/kb_fresh2/run{i}.jsonl"] for i in range(1, 5)},
                H200 / "kb_fresh2" / "rank_features.jsonl.gz")
# tests/kb_fresh3: written the same way after the structural reward's speed weight was chosen again (on the
# model-style candidates, the kb corpora and kb_fresh); its estimates committed before it was timed.  Timed
# again on an H100 after the fast path replayed alignment tests (its H200 runs had interpreted every call of
# the seven candidates that test their pointers' alignment, ~0.5 ms of host time added to each)
FRESH3 = Corpus(("tests/kb_fresh3",), {f"kb_fresh3 run {i}": [f"h100/kb_fresh3/run{i}.jsonl"] for i in (1, 2, 3)},
                H200 / "kb_fresh3" / "rank_features.jsonl.gz")
# tests/kb_fresh4: written the same way on 2026-12-05, after the shrinkage was chosen on the corpora above
# (kb_fresh3 among them, which makes it tuned on from then); its estimates committed before it was timed.
# Timed on an H100 after the alignment-test fix (as kb_fresh3)
FRESH4 = Corpus(("tests/kb_fresh4",), {f"kb_fresh4 run {i}": [f"h100/kb_fresh4/run{i}.jsonl"] for i in (1, 2)},
                H200 / "kb_fresh4" / "rank_features.jsonl.gz")
# tests/kb_fresh5: written the same way on 2026-12-05, after kb_fresh4 was scored on sound times (nothing of the
# model changed since); its estimates committed before it was timed, then timed on an H100 (session 40)
FRESH5 = Corpus(("tests/kb_fresh5",), {f"kb_fresh5 run {i}": [f"h100/kb_fresh5/run{i}.jsonl"] for i in (1, 2)},
                DATA / "kb_fresh5" / "rank_features.jsonl.gz")
# tests/kb_fresh6: written the same way on 2026-12-05 (session 40), after kb_fresh5 was scored and its two misses
# of the wrapper interpreter fixed (templated launch helpers, occupancy queries); its estimates committed
# before it was timed
FRESH6 = Corpus(("tests/kb_fresh6",), {f"kb_fresh6 run {i}": [f"h100/kb_fresh6/run{i}.jsonl"] for i in (1, 2)},
                DATA / "kb_fresh6" / "rank_features.jsonl.gz")
# tests/kb_fresh7: written the same way on 2026-12-05 (session 40), after kb_fresh6 was scored and coalescing
# learnt warp-uniform data-dependent rows (8f61ba7); its estimates committed before it was timed
FRESH7 = Corpus(("tests/kb_fresh7",), {f"kb_fresh7 run {i}": [f"h100/kb_fresh7/run{i}.jsonl"] for i in (1, 2)},
                DATA / "kb_fresh7" / "rank_features.jsonl.gz")
# tests/kb_fresh8: written the same way on 2026-12-05 (session 41), after kb_fresh7 was scored and global atomics
# priced at a measured rate (the ranker refitted); its estimates committed before it was timed
FRESH8 = Corpus(("tests/kb_fresh8",), {f"kb_fresh8 run {i}": [f"h100/kb_fresh8/run{i}.jsonl"] for i in (1, 2)},
                DATA / "kb_fresh8" / "rank_features.jsonl.gz")
# tests/kb_fresh9: written the same way on 2026-12-05 (session 42), after kb_fresh8 was scored and the last
# block's ticket counted once (e1408a4); its estimates committed before it was timed
FRESH9 = Corpus(("tests/kb_fresh9",), {f"kb_fresh9 run {i}": [f"h100/kb_fresh9/run{i}.jsonl"] for i in (1, 2)},
                DATA / "kb_fresh9" / "rank_features.jsonl.gz")
# tests/kb_fresh10: written the same way on 2026-12-06 (session 44), after kb_fresh9 was scored, the instruction
# count entered the time model and an untraced candidate's structural score moved to parity speed (d1a8815); its
# estimates committed before it was timed
FRESH10 = Corpus(("tests/kb_fresh10",), {f"kb_fresh10 run {i}": [f"h100/kb_fresh10/run{i}.jsonl"] for i in (1, 2)},
                 DATA / "kb_fresh10" / "rank_features.jsonl.gz")
# tests/kb_fresh11: written the same way on 2026-12-06 (session 45), after kb_fresh10 was scored and the structural
# reward's speed term moved to the ranker's estimate; its estimates committed before it was timed
FRESH11 = Corpus(("tests/kb_fresh11",), {f"kb_fresh11 run {i}": [f"h100/kb_fresh11/run{i}.jsonl"] for i in (1, 2)},
                 DATA / "kb_fresh11" / "rank_features.jsonl.gz")
# tests/kb_fresh12: written the same way on 2026-12-06 (session 46), after kb_fresh11 was scored; its estimates
# committed before it was timed on an H100
FRESH12 = Corpus(("tests/kb_fresh12",), {f"kb_fresh12 run {i}": [f"h100/kb_fresh12/run{i}.jsonl"] for i in (1, 2)},
                 DATA / "kb_fresh12" / "rank_features.jsonl.gz")
# tests/kb_fresh13: written the same way on 2026-12-06 (session 47), after kb_fresh12 was scored; its estimates
# committed before it was timed on an H100
FRESH13 = Corpus(("tests/kb_fresh13",), {f"kb_fresh13 run {i}": [f"h100/kb_fresh13/run{i}.jsonl"] for i in (1, 2)},
                 DATA / "kb_fresh13" / "rank_features.jsonl.gz")
# tests/kb_fresh14: written the same way on 2026-12-06 (session 49), after kb_fresh13 was scored; its estimates
# committed before it was timed
FRESH14 = Corpus(("tests/kb_fresh14",), {f"kb_fresh14 run {i}": [f"h100/kb_fresh14/run{i}.jsonl"] for i in (1, 2)},
                 DATA / "kb_fresh14" / "rank_features.jsonl.gz")
CORPORA = {"kb": KB, "fresh": FRESH, "fresh2": FRESH2, "fresh3": FRESH3, "fresh4": FRESH4, "fresh5": FRESH5,
           "fresh6": FRESH6, "fresh7": FRESH7, "fresh8": FRESH8, "fresh9": FRESH9, "fresh10": FRESH10,
           "fresh11": FRESH11, "fresh12": FRESH12, "fresh13": FRESH13, "fresh14": FRESH14}


def _relative(path: str, corpus: Corpus) -> str:
    """A record's candidate path as tests/... (a second run evaluated a copy under a temporary directory)."""
    for d in corpus.task_dirs:
        name = d.rsplit("/", 1)[1]
        if f"/{name}/" in path or path.startswith(f"{name}/"):
            return f"{d}/{path.split(f'{name}/', 1)[1]}"
    return path


def runs(corpus: Corpus = KB) -> dict[str, dict[str, tuple[float, float]]]:
    """Per run, candidate path -> (candidate ms, reference ms) of every `correct` candidate."""
    out: dict[str, dict[str, tuple[float, float]]] = {}
    for run, files in corpus.runs.items():
        found = out.setdefault(run, {})
        for f in files:
            for r in read_jsonl(DATA / f):
                t = r.get("time_ms") or {}
                if r.get("status") == "correct" and t.get("candidate") and t.get("reference"):
                    found[_relative(r["candidate"], corpus)] = (t["candidate"], t["reference"])
    return out


def relative_times(corpus: Corpus = KB) -> dict[str, dict[str, float]]:
    """Task directory -> candidate path -> median over runs of its time over its reference's."""
    ratios: dict[str, list[float]] = defaultdict(list)
    for found in runs(corpus).values():
        for path, (cand, ref) in found.items():
            ratios[path].append(cand / ref)
    tasks: dict[str, dict[str, float]] = defaultdict(dict)
    for path, values in sorted(ratios.items()):
        tasks[str(Path(path).parent)][path] = statistics.median(values)
    return dict(tasks)


def candidates(corpus: Corpus = KB) -> dict[str, list[str]]:
    """Task directory -> the candidates its corpus ranks: those its runs measured `correct`, or, before it
    has been timed (no run file yet), every candidate file of its task directories, so that its
    estimates can be committed before any time is known."""
    if corpus.timed:
        return {task: sorted(cands) for task, cands in relative_times(corpus).items()}
    return {str(ref.parent.relative_to(ROOT)): sorted(str(p.relative_to(ROOT)) for p in ref.parent.glob("*.py")
                                                      if p.name != "reference.py")
            for d in corpus.task_dirs for ref in sorted((ROOT / d).glob("*/reference.py"))}


def rows(corpus: Corpus = KB) -> list[dict]:
    """Every candidate of `candidates(corpus)` estimated at its task's shapes (one trace per task)."""
    from ...costmodel.candidates import estimate
    from .styles_data import estimate_row

    out = []
    for task, paths in candidates(corpus).items():
        codes = [(ROOT / p).read_text() for p in paths]
        for path, code, est in zip(paths, codes, estimate((ROOT / task / "reference.py").read_text(), codes,
                                                          labels=paths)):
            out.append({"task_id": task, "impl_id": path, **estimate_row(est, code)})
            print(task, Path(path).name, est.seconds, est.reason, file=sys.stderr)
    return out


KERNEL_TIMES = H200 / "kb_kernel_times" / "kb_kernel_times.jsonl"


def kernel_times(features: str | Path = KB.features) -> list[tuple[str, str, float, float]]:
    """(candidate, kernel, H200 device us per forward, estimated us) for each kernel of each candidate the
    H200 profiled (`benchmarks/kb_kernel_times_h200.py`), launches of one kernel summed (a template's
    instances too); the estimate is its launches' largest time term, without the launch's own 3 us."""
    from ...costmodel.terms import ARCH

    est = {r["impl_id"]: r for r in read_jsonl(features)}
    out = []
    for m in read_jsonl(KERNEL_TIMES):
        estimated: dict[str, float] = defaultdict(float)
        for k in est[m["candidate"]]["kernels"]:
            estimated[k["kernel"].split("<")[0]] += k["count"] * (k["seconds"] - ARCH["launch_s"]) * 1e6
        for name, us in estimated.items():
            measured = sum(v[1] for n, v in m["kernels"].items() if re.search(rf"\b{re.escape(name)}\b", n))
            out.append((m["candidate"], name, measured, us))
    return out


def samples(corpus: Corpus = KB) -> list[Sample]:
    """Measured candidates joined with their committed estimates; `time_ms` is the relative time
    (candidate over reference), `inputs` as `styles_data.samples` gives them."""
    from ...rewards.config import RewardConfig
    from .styles_data import row_structural

    config = RewardConfig()
    feats = {r["impl_id"]: r for r in read_jsonl(corpus.features)}
    found = []
    for task, cands in relative_times(corpus).items():
        for path, ratio in cands.items():
            f = feats.get(path)
            if f is None:
                continue
            structural = _untraced_structural(path, config) if f["terms"] is None else \
                row_structural(f, f["reference_terms"], config)
            found.append(Sample(f"kb/{Path(task).name}", 0, Path(path).name, ratio,
                                {"terms": f["terms"], "launches": f["launches"], "lines": f["lines"],
                                 "guess": f["guess"], "reason": f["reason"], "structural": structural}))
    return found


def _untraced_structural(path: str, config) -> float | None:
    """What the unified reward scores a candidate whose launches the trace could not follow
    (`structural.score_untraced`), read from its committed file (every kernel it defines: the reward counts
    those its run launched, which no run here says); None where it cannot be read."""
    from ...rewards.structural import Unreadable, kernel_features, score_kernels, score_untraced

    try:
        found = kernel_features((ROOT / path).read_text(), "python", None, config)
    except (OSError, Unreadable):
        return None
    return score_untraced(score_kernels(found, config), config).score


def scores(items: list[Sample], ranker=None) -> dict[str, list[float]]:
    """Per ordering (higher = predicted faster): the ranker (the packaged model unless given), the
    untrained time estimate, and the trivial baselines.  A candidate without an estimate (its kernels'
    launches could not be followed) is placed where `cudaperf rank` places it, at the middle of its
    task's others, in the first two orderings; the structural reward scores it as the unified reward does
    (`structural.score_untraced`); in the others it comes last."""
    from ...costmodel.model import Ranker

    ranker = ranker or Ranker.default()
    out: dict[str, list[float]] = {"ranker": [], "untrained time estimate": [], "more CUDA lines": [],
                                   "fewer launches": [], "structural reward at the task's shapes": []}
    for s in items:
        terms = s.inputs["terms"]
        out["ranker"].append(ranker.score_terms(terms) if terms else math.nan)
        out["untrained time estimate"].append(-terms["total"] if terms else math.nan)
        out["more CUDA lines"].append(s.inputs["lines"])
        out["fewer launches"].append(-s.inputs["launches"] if terms else -math.inf)
        structural = s.inputs["structural"]
        out["structural reward at the task's shapes"].append(-math.inf if structural is None else structural)
    for ordering in ("ranker", "untrained time estimate"):
        _place_at_the_middle(out[ordering], [s.task_id for s in items])
    return out


def _place_at_the_middle(values: list[float], tasks: list[str]) -> None:
    """NaN (no estimate) becomes a score between the task's ranked candidates where `Ranker.rank_candidates`
    puts it (`placed_after`)."""
    from ...costmodel.model import placed_after

    for task in set(tasks):
        members = [i for i, t in enumerate(tasks) if t == task]
        ranked = sorted((values[i] for i in members if not math.isnan(values[i])), reverse=True)
        middle = placed_after(len(ranked))
        if ranked:
            above = ranked[middle - 1]
            place = (above + (ranked[middle] if middle < len(ranked) else above - 1.0)) / 2
        else:
            place = 0.0
        for i in members:
            if math.isnan(values[i]):
                values[i] = place


def run_pairs(a: str, b: str, ratio: float = 1.25, relative: bool = True, corpus: Corpus = KB) -> tuple[int, int]:
    """The hardware's own noise floor: pairs of one task's candidates >= `ratio` apart in run `a` (their
    times relative to the reference's, or with `relative=False` their own), and how many of them run `b`
    orders the same way."""
    measured = runs(corpus)

    def time(run: str, path: str) -> float:
        cand, ref = measured[run][path]
        return cand / ref if relative else cand

    pairs = agree = 0
    by_task: dict[str, list[str]] = defaultdict(list)
    for path in measured[a]:
        if path in measured[b]:
            by_task[str(Path(path).parent)].append(path)
    for paths in by_task.values():
        for i, p in enumerate(paths):
            for q in paths[i + 1:]:
                ra, rb = time(a, p) / time(a, q), time(b, p) / time(b, q)
                if max(ra, 1 / ra) >= ratio:
                    pairs += 1
                    agree += (ra > 1) == (rb > 1)
    return pairs, agree


def main(argv: list[str] | None = None) -> int:
    """`features OUT.jsonl.gz [CORPUS]`: the CPU estimates of one corpus of `CORPORA` (kb unless named)."""
    from .styles_data import write_features

    argv = sys.argv[1:] if argv is None else argv
    named = len(argv) == 3 and argv[-1] in CORPORA
    corpus = CORPORA[argv[-1]] if named else KB
    return write_features(argv[:-1] if named else argv, "cudaperf.rl.dataset.kb_measured", lambda: rows(corpus))


if __name__ == "__main__":
    sys.exit(main())
