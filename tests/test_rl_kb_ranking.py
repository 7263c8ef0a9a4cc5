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


def test_every_measured_candidate_has_a_committed_estimate():
    items = kb_measured.samples()
    assert len(items) == 53
    assert all(s.inputs["terms"] is not None and not s.inputs["guess"] for s in items)


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
    committed = {r["impl_id"]: r for r in kb_measured.read_jsonl(kb_measured.FEATURES) if r["task_id"] == task}
    paths = sorted(committed)
    codes = [(ROOT / p).read_text() for p in paths]
    for path, est in zip(paths, estimate((ROOT / task / "reference.py").read_text(), codes, labels=paths)):
        assert est.terms["total"] == pytest.approx(committed[path]["terms"]["total"], rel=1e-6), path


@pytest.mark.slow      # 15 leave-one-family-out fits: about 20 s
def test_published_kb_and_reliability_tables_reproduce():
    pytest.importorskip("scipy")
    from cudaperf.rl import rank_train

    doc = (ROOT / "docs" / "ranking.md").read_text()
    kb = rank_train.kb_markdown()
    assert "\n".join(kb.splitlines()[2:]) in doc
    rows = {line.split("|")[1].strip(): line for line in kb.splitlines()[2:]}
    acc = {name: float(row.split("|")[4].strip().rstrip("%")) for name, row in rows.items() if "%" in row}
    # issue 27's bar; the ranker ties its untrained estimate here (docs/ranking.md, "Where each figure stands")
    assert acc["ranker"] >= 85.0 and acc["structural reward at the task's shapes"] >= 85.0
    assert acc["ranker"] >= acc["untrained time estimate"] and acc["ranker"] > acc["more CUDA lines"]
    items = rank_train.all_samples()
    assert rank_train.reliability_markdown(rank_train.reliability_tables(items)) in doc
    fitted = rank_train.calibration(items, Ranker.default())
    assert fitted["slope"] == pytest.approx(Ranker.default().model["calibration"]["slope"], abs=1e-3)
