"""Only the analyses a caller reads are run (Options.analyses): lint's selected rules and a reward's
weighted components decide, and what is run gives what the full analysis gives."""

from __future__ import annotations

import pytest

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.analysis.passes import wanted
from cudaperf.lint import run as lint_run
from cudaperf.lint.rules import REGISTRY, select
from cudaperf.rewards.config import RewardConfig
from cudaperf.rewards.structural import analyses_read, kernel_features, score_kernels

RACY = """
__global__ void k(const float* in, float* out, int n) {
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = in[i * 2];
    if (threadIdx.x < 128) out[i] = tile[threadIdx.x + 1];
    for (int j = 0; j < n; j++) out[i] += in[j];
}
"""
LAUNCH = dict(grid=(64, 1, 1), block=(256, 1, 1), args={"n": 8.0}, resources="estimate")


def _kernel(analyses=None):
    return analyze_source(RACY, "racy.cu", Options(**LAUNCH, analyses=analyses)).kernels[0]


def test_memory_alone_gives_the_full_accesses_and_nothing_else():
    full, memory = _kernel(), _kernel(frozenset({"memory"}))
    assert [a.to_json() for a in memory.accesses] == [a.to_json() for a in full.accesses]
    assert memory.dram is not None and memory.dram.read == full.dram.read
    assert full.branches and full.sync and full.work is not None
    assert not memory.branches and not memory.sync and memory.work is None


def test_races_alone_find_the_race_without_the_other_analyses():
    full, races = _kernel(), _kernel(frozenset({"races"}))
    assert any(h.kind == "shared-race" for h in full.sync)
    assert [h for h in full.sync if h.kind == "shared-race"] == races.sync
    assert not races.accesses and not races.branches and races.dram is None


def test_sync_reads_memory_and_branches_and_unknown_names_are_refused():
    assert wanted({"sync"}) == {"sync", "memory", "branches"}
    assert wanted(None) == {"memory", "branches", "sync", "races", "work"}
    with pytest.raises(ValueError, match="unknown analyses"):
        wanted({"coalescing"})


def test_every_rule_names_known_analyses():
    for r in REGISTRY.values():
        assert wanted(r.needs) >= set(r.needs)


def test_lint_asks_for_what_the_selected_rules_read(tmp_path, monkeypatch):
    path = tmp_path / "racy.cu"
    path.write_text(RACY)
    asked = []
    analyze = lint_run.analyze_file
    monkeypatch.setattr(lint_run, "analyze_file", lambda p, o: asked.append(o.analyses) or analyze(p, o))
    options = Options(grid=(64, 1, 1), block=(256, 1, 1), args={"n": 8.0}, resources="estimate")
    _, some, _ = lint_run.lint_paths([str(path)], options, select(["uncoalesced-access"]))
    _, every, _ = lint_run.lint_paths([str(path)], options, select())
    assert asked == [frozenset({"memory"}), frozenset({"memory", "branches", "sync", "races", "work"})]
    assert some and some == [f for f in every if f.name == "uncoalesced-access"]


def test_a_reward_weighting_coalescing_and_occupancy_runs_the_memory_analysis_only():
    lean = RewardConfig(weights={"coalescing": 0.5, "occupancy": 0.5}, penalties={})
    assert analyses_read(lean) == {"memory"}
    assert analyses_read(RewardConfig()) == {"memory", "work", "races", "sync"}
    assert analyses_read(RewardConfig(penalties={"branches": 1.0})) == {"memory", "work", "branches"}  # its pass
    assert analyses_read(RewardConfig(penalties={"loops": 1.0})) == {"memory", "work"}  # always there
    assert analyses_read(RewardConfig(penalties={"nothing": 1.0})) is None  # no pass declares it
    spec = {"launches": [{"kernel": "k", "grid": [64], "block": [256]}]}
    features = kernel_features(RACY, "cuda", spec, lean)
    assert features[0][1]["races"] == 0.0  # not analysed: the score does not read it
    full = kernel_features(RACY, "cuda", spec, RewardConfig(weights=lean.weights, penalties={"races": 1e-9}))
    assert full[0][1]["races"] > 0
    assert score_kernels(features, lean).score == pytest.approx(score_kernels(full, lean).score)
