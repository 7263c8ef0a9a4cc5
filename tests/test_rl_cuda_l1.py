"""CUDA-L1's model-written KernelBench solutions timed on the H200 as ranking data (issue 27 item 4): the
fixed tuning / held-out split, the committed estimates against the committed timings, and the figures
docs/ranking.md publishes for both halves, regenerated from the committed files (the solutions' code is
never committed, so nothing here re-traces them)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cudaperf.rl.dataset import cuda_l1

ROOT = Path(__file__).resolve().parents[1]


def test_the_split_is_fixed_by_the_task_name():
    assert cuda_l1.split("L1_001") == cuda_l1.split("L1_001")
    tasks = {r["task"] for r in cuda_l1.read_jsonl(cuda_l1.FEATURES)}
    halves = Counter(cuda_l1.split(t) for t in tasks)
    assert set(halves) == {"tuning", "held_out"} and min(halves.values()) > 0.35 * len(tasks)


def test_every_timed_solution_has_an_estimate_or_says_why():
    """Every correct, timed solution has a committed row; those without an estimate name the reason (the
    code is not here to say more), and so does every reference that could not be traced."""
    feats = {(r["task"], r["solution"]): r for r in cuda_l1.read_jsonl(cuda_l1.FEATURES)}
    timed = cuda_l1.relative_times()
    for task, solutions in timed.items():
        ref = feats[task, cuda_l1.REFERENCE]
        assert ref["terms"] is not None or ref["reason"], task
        for solution in solutions:
            row = feats[task, solution]
            assert row["terms"] is not None or row["reason"], (task, solution)
    items = cuda_l1.samples()
    assert {s.impl_id for s in items if s.impl_id == cuda_l1.REFERENCE} == {cuda_l1.REFERENCE}
    assert all(s.time_ms == 1.0 for s in items if s.impl_id == cuda_l1.REFERENCE)


def test_rows_timed_with_leaked_precision_flags_give_way_to_a_clean_run():
    """L1_068's reference ran at 8.7 ms in the first run, after an earlier task's solution left TF32 on, and
    at 35.8 ms when re-timed with torch's defaults restored: the two clean runs alone count.  A task that only
    the first runs timed keeps their rows."""
    timed = cuda_l1.relative_times()
    rows = {(r["task"], r["solution"], path.name): r for path in cuda_l1.DATA.glob("plain_run*.jsonl")
            for r in cuda_l1.read_jsonl(path)}
    clean = [r["time_ms"] / r["reference_ms"] for (task, solution, run), r in rows.items()
             if (task, solution) == ("L1_068", "cuda_l1_a100") and run not in cuda_l1.LEAKY_RUNS]
    assert len(clean) == 2 and timed["L1_068"]["cuda_l1_a100"] == pytest.approx(sum(clean) / 2)
    leaky = rows["L1_068", "cuda_l1_a100", "plain_run1.jsonl"]
    assert timed["L1_068"]["cuda_l1_a100"] < 0.25 and leaky["time_ms"] / leaky["reference_ms"] > 0.5
    only_leaky = {t for t, _, run in rows if run in cuda_l1.LEAKY_RUNS} - {
        t for t, _, run in rows if run not in cuda_l1.LEAKY_RUNS}
    assert only_leaky and only_leaky <= set(timed)


def test_reference_estimates_are_near_their_measured_times():
    """The torch side of the time model against the H200: each task's reference estimate (committed) over its
    measured time (the median of its clean runs), in both halves.  With the host time per call refitted on
    the tuning half and the row-block, multi-kernel and convolution operators priced as profiled, the
    median error is a factor of about 1.28 on each half (it was 2.2, always low for small tasks, before)."""
    import math
    import statistics

    feats = {r["task"]: r for r in cuda_l1.read_jsonl(cuda_l1.FEATURES) if r["solution"] == cuda_l1.REFERENCE}
    measured: dict[str, list[float]] = {}
    for path in sorted(cuda_l1.DATA.glob("plain_run*.jsonl")):
        if path.name not in cuda_l1.LEAKY_RUNS:
            for r in cuda_l1.read_jsonl(path):
                if r.get("reference_ms") and r["task"] in feats and feats[r["task"]]["terms"]:
                    measured.setdefault(r["task"], []).append(r["reference_ms"])
    for half in ("tuning", "held_out"):
        errors = [abs(math.log(feats[t]["terms"]["total"] * 1e3 / statistics.median(ms)))
                  for t, ms in measured.items() if cuda_l1.split(t) == half]
        assert len(errors) >= 100
        assert statistics.median(errors) < math.log(1.35)


@pytest.mark.slow       # the leave-one-family-out fits behind the calibration: about 20 s
def test_published_cuda_l1_tables_reproduce():
    pytest.importorskip("scipy")
    from cudaperf.rl import rank_train

    doc = (ROOT / "docs" / "ranking.md").read_text()
    for which in ("tuning", "held_out"):
        table = rank_train.cuda_l1_markdown(which)
        for line in table.splitlines():
            if line.startswith("| ") and "---" not in line:
                assert line in doc, line


def test_on_other_gpus_the_ranker_beats_line_counting_and_the_docs_say_so():
    """CUDA-L1's own timings on the GPUs it released for (no L40S here: the L40 has its chip and memory):
    each released solution against its reference.  The table in docs/ranking.md is what the committed
    data gives."""
    from cudaperf.rl import rank_train

    tables = rank_train.release_tables()
    assert {gpu for _, gpu in tables} == {"3090", "a100", "h100", "h20", "l40"}
    for (which, gpu), t in tables.items():
        assert t["ranker"]["pairs_1.25"] >= 50, (which, gpu)
        assert t["ranker"]["accuracy_1.25"] > t["more CUDA lines"]["accuracy_1.25"] + 0.15, (which, gpu)
    assert tables["held_out", "l40"]["ranker"]["accuracy_1.25"] >= 0.85     # the issue asks 80% on the L40S
    doc = (ROOT / "docs" / "ranking.md").read_text()
    for line in (rank_train.release_markdown() + rank_train.baseline_scores_markdown()).splitlines():
        assert line in doc, line


def test_cuda_l1_scores_codes_that_run_the_reference_as_faster_than_it():
    """The release's cuDNN baselines run the reference's own operators (the CPU estimates the GPU work of
    161 of 250 within 10% of the reference's; most others leave cuDNN off, which runs their convolutions
    slower) and add the host time of `cudnn.flags`, yet CUDA-L1 scores them 1.5 to 1.7x as fast: its
    scores carry how it timed the reference, which is why docs/ranking.md leaves the baselines out of its
    pairs."""
    found = cuda_l1.baseline_scores()
    assert set(found) == {"3090", "a100", "h100", "h20", "l40"}
    for gpu, (alike, median, share) in found.items():
        assert alike >= 130 and median > 1.5 and share > 0.75, gpu


def test_release_rows_that_carry_no_code_are_not_solutions():
    """About 16 rows per GPU score the code `None`, which no tracer can read: they are left out, so
    nearly every scored code has an estimate (two solutions do not: one does not parse, one writes
    outside its directory)."""
    rows = list(cuda_l1.read_jsonl(cuda_l1.RELEASE_SCORES))
    assert len(rows) > 3000 and all(r["score"] > 0 for r in rows)
    features = {(r["task"], r["solution"]): r for path in (cuda_l1.FEATURES, cuda_l1.BASELINE_FEATURES)
                for r in cuda_l1.read_jsonl(path)}
    unestimated = {(r["task"], r["solution"]) for r in rows if features[r["task"], r["solution"]]["terms"] is None}
    assert len(unestimated) <= 2, unestimated


def test_the_h200_times_the_cudnn_baselines_as_the_reference_plus_host_time():
    """Timed on the H200 beside its reference, the cuDNN baseline (the reference's operators under
    `cudnn.flags`) is no faster: the scores CUDA-L1 gives it are about how it timed the reference.  The
    table of the H200's groups with the baselines in docs/ranking.md is what the committed data gives."""
    import statistics

    from cudaperf.rl import rank_train

    ratios = [r["time_ms"] / r["reference_ms"] for path in sorted(cuda_l1.BASELINE_RUNS.glob("*.jsonl"))
              for r in cuda_l1.read_jsonl(path) if r["solution"] == "cuda_l1_cudnn" and r["correct"]]
    assert len(ratios) >= 240 and statistics.median(ratios) > 1.0
    assert sum(x <= 0.8 for x in ratios) <= 0.05 * len(ratios)
    tables = rank_train.h200_baseline_tables()
    for t in tables.values():
        assert t["codes: ranker"]["accuracy_1.25"] > t["codes: more CUDA lines"]["accuracy_1.25"]
    doc = (ROOT / "docs" / "ranking.md").read_text()
    for line in rank_train.h200_baseline_markdown().splitlines():
        assert line in doc, line
