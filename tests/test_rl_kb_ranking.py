"""The ranker on KernelBench-style candidates nobody tuned on (issue 27): the H200 records of tests/kb_llm
and tests/kb_heldout as ranking data, the noise floor that decides how a time is read, the calibrated
P(faster) and the figures docs/ranking.md publishes, regenerated from the committed data."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from cudaperf.rl.dataset import kb_measured
from cudaperf.rl.ranking import Ranker

ROOT = Path(__file__).resolve().parents[1]


def test_relative_times_are_what_two_runs_agree_on():
    """Two runs of the same corpus on the same H200: the order of raw times at >= 1.25x agrees 27 of
    41 times, the order of times relative to the reference timed beside each 43 of 44."""
    raw = [kb_measured.run_pairs(a, "kb_llm run 2", relative=False) for a in ("kb_llm run 1", "heldout")]
    rel = [kb_measured.run_pairs(a, "kb_llm run 2") for a in ("kb_llm run 1", "heldout")]
    assert tuple(map(sum, zip(*raw))) == (41, 27)
    assert tuple(map(sum, zip(*rel))) == (44, 43)
    tasks = kb_measured.relative_times()
    assert len(tasks) == 10 and sum(map(len, tasks.values())) == 53


def test_kb_fresh3_and_kb_fresh4_runs_agree_and_every_candidate_is_ranked():
    """kb_fresh4's two H100 runs (one batch, the GPU alone for each timed call) order all 90 pairs >= 1.25x
    apart alike, kb_fresh3's three runs (two device calls) 97 of 97 and 95 of 95; kb_fresh4's one candidate
    without an estimate (a cluster launch through cudaLaunchKernelEx) is still among the samples, scored
    where `cudaperf rank` places it."""
    assert kb_measured.run_pairs("kb_fresh4 run 1", "kb_fresh4 run 2", corpus=kb_measured.FRESH4) == (90, 90)
    fresh3 = kb_measured.FRESH3
    assert kb_measured.run_pairs("kb_fresh3 run 1", "kb_fresh3 run 2", corpus=fresh3) == (97, 97)
    assert kb_measured.run_pairs("kb_fresh3 run 2", "kb_fresh3 run 3", corpus=fresh3) == (95, 95)
    items = kb_measured.samples(kb_measured.FRESH4)
    assert len(items) == 48 and [s.impl_id for s in items if s.inputs["terms"] is None] == [
        "honest_cluster_dsmem_register_cached.py"]
    assert all(math.isfinite(v) for v in kb_measured.scores(items)["ranker"])


def test_kb_fresh8_runs_agree_and_every_candidate_is_estimated():
    """kb_fresh8's two H100 runs (session 42) order all 90 pairs >= 1.25x apart alike; its 48 candidates
    were estimated before they were timed, none a guess."""
    assert kb_measured.run_pairs("kb_fresh8 run 1", "kb_fresh8 run 2", corpus=kb_measured.FRESH8) == (90, 90)
    items = kb_measured.samples(kb_measured.FRESH8)
    assert len(items) == 48 and all(s.inputs["terms"] is not None and not s.inputs["guess"] for s in items)


def test_kb_fresh9_runs_agree_and_its_estimates_precede_its_times():
    """kb_fresh9's two H100 runs (session 43): 48 of 48 `correct` in each, 75 of the 78 pairs >= 1.25x
    apart in run 1 in the same order in run 2 (the three others within 1.36x in run 1: two batched_matvec
    pairs and one of softmax_short_rows); 47 of its 48 candidates estimated before they were timed, none a
    guess (the 48th launches through a local naming a template instance and is placed at the middle of its
    task)."""
    assert kb_measured.run_pairs("kb_fresh9 run 1", "kb_fresh9 run 2", corpus=kb_measured.FRESH9) == (78, 75)
    items = kb_measured.samples(kb_measured.FRESH9)
    estimated = [s for s in items if s.inputs["terms"] is not None]
    assert len(items) == 48 and len(estimated) == 47 and not any(s.inputs["guess"] for s in estimated)


def test_kb_fresh10_runs_agree_and_every_candidate_was_estimated_before_its_times():
    """kb_fresh10's two H100 runs (session 44): 48 of 48 `correct` in each, 58 of the 60 pairs >= 1.25x
    apart in run 1 in the same order in run 2; all 48 estimated before they were timed, seven of them
    guesses (arguments the wrappers pass through structs or helpers the interpreter did not read)."""
    assert kb_measured.run_pairs("kb_fresh10 run 1", "kb_fresh10 run 2", corpus=kb_measured.FRESH10) == (60, 58)
    items = kb_measured.samples(kb_measured.FRESH10)
    assert len(items) == 48 and all(s.inputs["terms"] is not None for s in items)
    assert sum(s.inputs["guess"] for s in items) == 7


def test_kb_fresh11_runs_agree_and_every_candidate_was_estimated_before_its_times():
    """kb_fresh11's two H100 runs (session 45): 48 of 48 `correct` in each, 68 of the 70 pairs >= 1.25x
    apart in run 1 in the same order in run 2; all 48 estimated before they were timed, none a guess."""
    assert kb_measured.run_pairs("kb_fresh11 run 1", "kb_fresh11 run 2", corpus=kb_measured.FRESH11) == (70, 68)
    items = kb_measured.samples(kb_measured.FRESH11)
    assert len(items) == 48 and all(s.inputs["terms"] is not None and not s.inputs["guess"] for s in items)


def test_kb_fresh12_runs_agree_and_every_candidate_was_estimated_before_its_times():
    """kb_fresh12's two H100 runs (session 46): 48 of 48 `correct` in each, 65 of the 66 pairs >= 1.25x
    apart in run 1 in the same order in run 2; all 48 estimated before they were timed (91d28b6), twelve of
    them guesses (loops whose trip count the sampler takes from data, wrappers the interpreter did not read)."""
    assert kb_measured.run_pairs("kb_fresh12 run 1", "kb_fresh12 run 2", corpus=kb_measured.FRESH12) == (66, 65)
    items = kb_measured.samples(kb_measured.FRESH12)
    assert len(items) == 48 and all(s.inputs["terms"] is not None for s in items)
    assert sum(s.inputs["guess"] for s in items) == 12


def test_kb_fresh13_runs_agree_and_every_candidate_was_estimated_before_its_times():
    """kb_fresh13's two H100 runs (session 47): 48 of 48 `correct` in each, 71 of the 73 pairs >= 1.25x
    apart in run 1 in the same order in run 2; all 48 estimated before they were timed (7fa172e), five of
    them guesses (loops whose trip count the sampler takes from data)."""
    assert kb_measured.run_pairs("kb_fresh13 run 1", "kb_fresh13 run 2", corpus=kb_measured.FRESH13) == (73, 71)
    items = kb_measured.samples(kb_measured.FRESH13)
    assert len(items) == 48 and all(s.inputs["terms"] is not None for s in items)
    assert sum(s.inputs["guess"] for s in items) == 5


def test_every_measured_candidate_has_a_committed_estimate():
    items = kb_measured.samples()
    assert len(items) == 53
    assert all(s.inputs["terms"] is not None and not s.inputs["guess"] for s in items)


@pytest.mark.parametrize("ranked", [0, 1, 2, 5, 6])
def test_a_candidate_without_an_estimate_is_scored_where_rank_places_it(ranked):
    """`cudaperf rank` puts a candidate whose launches could not be followed after the first (n + 1) // 2
    of the n it estimated (`Ranker.rank_candidates`); the published tables score it there too, not last."""
    values = [float(10 - i) for i in range(ranked)] + [math.nan] + [7.5]   # the last one: another task
    kb_measured._place_at_the_middle(values, ["t"] * (ranked + 1) + ["u"])
    order = sorted(range(ranked + 1), key=lambda i: -values[i])
    assert order.index(ranked) == (ranked + 1) // 2 and values[-1] == 7.5


def test_calibrated_probabilities():
    ranker = Ranker.default()
    cal = ranker.model["calibration"]
    assert cal["guess_slope"] == pytest.approx(cal["slope"] / 2, rel=1e-3)
    assert ranker.p_faster(1.0) == pytest.approx(1 / (1 + math.exp(-cal["slope"])))
    assert 0.5 < ranker.p_faster(1.0, guess=True) < ranker.p_faster(1.0)
    assert ranker.p_faster(0.0) == 0.5 and ranker.p_faster(-2.0) == pytest.approx(1 - ranker.p_faster(2.0))


@pytest.mark.torch
def test_committed_estimates_are_the_current_ones():
    """One task re-estimated now: the committed features file is what the code computes."""
    pytest.importorskip("torch")
    from cudaperf.rl.candidates import estimate

    task = "tests/kb_heldout/softmax"
    committed = {r["impl_id"]: r for r in kb_measured.read_jsonl(kb_measured.KB.features) if r["task_id"] == task}
    paths = sorted(committed)
    codes = [(ROOT / p).read_text() for p in paths]
    for path, est in zip(paths, estimate((ROOT / task / "reference.py").read_text(), codes, labels=paths)):
        assert est.terms["total"] == pytest.approx(committed[path]["terms"]["total"], rel=1e-6), path


@pytest.mark.slow      # 15 leave-one-family-out fits: about 20 s
def test_published_kb_and_reliability_tables_reproduce():
    pytest.importorskip("scipy")
    from cudaperf.rl import rank_train

    doc = (ROOT / "docs" / "ranking.md").read_text()
    tables = {corpus: rank_train.kb_markdown(corpus=corpus) for corpus, measured in kb_measured.CORPORA.items()
              if measured.timed}
    assert set(tables) >= {"kb", "fresh", "fresh2", "fresh3", "fresh4"}
    for corpus, table in tables.items():
        assert "\n".join(table.splitlines()[2:]) in doc, corpus

    def accuracy(corpus: str) -> dict[str, float]:
        """Each method's accuracy on pairs >= 1.25x apart, from its table."""
        return {line.split("|")[1].strip(): float(line.split("|")[4].strip().rstrip("%"))
                for line in tables[corpus].splitlines()[2:] if "%" in line}

    acc = accuracy("kb")
    # issue 27's bar (tuned on since SHRINK was chosen on it; docs/ranking.md, "Where each figure stands")
    assert acc["ranker"] >= 85.0 and acc["structural reward at the task's shapes"] >= 85.0
    assert acc["ranker"] >= acc["untrained time estimate"] and acc["ranker"] > acc["more CUDA lines"]
    # issue 27's bar on the corpus written and scored once without anything changed for it (tuned on since)
    held = accuracy("fresh2")
    assert held["ranker"] >= 85.0 and held["ranker"] >= held["untrained time estimate"] > held["more CUDA lines"]
    # kb_fresh3 (its H100 runs after the fast path's alignment fix; tuned on since SHRINK was chosen on it):
    # above the bar and line counting; on its committed estimates the ranker refitted in session 43 is one
    # pair of 94 under its untrained estimate (level since session 41's refit, one pair above before it;
    # level again, 95.7%, on estimates made now: docs/ranking.md)
    third = accuracy("fresh3")
    assert third["ranker"] >= 85.0 and third["ranker"] > third["more CUDA lines"]
    assert third["ranker"] >= third["untrained time estimate"] - 100 / 94 - 0.05
    assert third["structural reward at the task's shapes"] >= 85.0
    items = rank_train.all_samples()
    assert rank_train.reliability_markdown(rank_train.reliability_tables(items)) in doc
    fitted = rank_train.calibration(items, Ranker.default())
    assert fitted["slope"] == pytest.approx(Ranker.default().model["calibration"]["slope"], abs=1e-3)


def test_kernel_estimates_against_the_h200s_device_times():
    """Issue 27 item 3 on families the time model was not designed on: every kernel of the 53 candidates,
    profiled alone on the H200 (device time, no host), against its committed estimate.  With the L1's
    latency for lane-uniform loads the median error is 1.40x (1.91x pricing every request at DRAM's), 41
    of 64 kernels are within 2x (32), and the direct convolutions, 2.5-3.1x high before, are within 1.8x."""
    import numpy as np

    rows = kb_measured.kernel_times()
    assert len(rows) == 64 and all(measured > 0 and estimated > 0 for _, _, measured, estimated in rows)
    measured, estimated = np.array([r[2] for r in rows]), np.array([r[3] for r in rows])
    error = np.abs(np.log(estimated / measured))
    assert math.exp(np.median(error)) < 1.5 and (error < math.log(2)).sum() >= 40
    ranks = [np.argsort(np.argsort(v)) for v in (measured, estimated)]
    assert np.corrcoef(*ranks)[0, 1] > 0.95
    convolutions = [e / m for c, name, m, e in rows if "/conv_relu_bias/" in c and "conv" in name]
    assert len(convolutions) == 5 and max(convolutions) < 1.8


def test_reliability_prices_a_guessed_pair_as_rank_does():
    """The reliability tables report the P that `cudaperf rank` shows: the halved slope where either
    estimate of the pair is a guess."""
    import numpy as np

    from cudaperf.rl import rank_train

    ranker = Ranker.default()
    margins, faster = np.array([1.5, 1.5]), np.array([1.0, 1.0])
    sure = rank_train.reliability(margins, faster, np.array([False, False]), ranker)
    guessed = rank_train.reliability(margins, faster, np.array([True, True]), ranker)
    assert sure[0]["predicted"] == round(ranker.p_faster(1.5), 3)
    assert guessed[0]["predicted"] == round(ranker.p_faster(1.5, True), 3) < sure[0]["predicted"]
    assert guessed[-1]["predicted"] > sure[-1]["predicted"]   # log-loss of right pairs: less sure costs more
