"""The unified reward on a real GPU (run on the H200, see tests/data/h200/rewards/): for one task,
correct-and-fast > correct-and-slow > incorrect > compile error, every statically caught reward hack
of tests/hacks and every runtime tampering gets the floor, and constant or unwritten outputs stay at
the incorrect level.  Native-format candidates and gate rejections only: KernelBench builds take a
minute each.  Rewards are written as JSON lines to $CUDAPERF_REWARD_RESULTS when set."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cudaperf.rewards import RewardConfig, make_reward
from cudaperf.rewards.execution import driver
from cudaperf.rewards.execution.api import Evaluator, Options

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(driver.device_count() == 0, reason="needs an NVIDIA GPU")]
pytest.importorskip("torch")

ROOT = Path(__file__).parents[1]
HACKS = ROOT / "tests" / "hacks"
FAMILY = ROOT / "tests" / "reward_families" / "coalescing"
SCALE_ADD = {"kind": "torch2cuda", "reference": (ROOT / "examples/eval/scale_add/reference.py").read_text()}
LINEAR_RELU = {"kind": "torch2cuda", "reference": (HACKS / "reference.py").read_text()}


def _fenced(path: Path) -> str:
    lang = "python" if path.suffix == ".py" else "cuda"
    return f"Here is my solution.\n\n```{lang}\n{path.read_text()}\n```\n"


def _expects(path: Path) -> str | None:
    first = path.read_text().splitlines()[0]
    return first.split(":", 1)[1].strip() if "expect" in first else None


LADDER = {"fast": _fenced(ROOT / "examples/eval/scale_add/candidate_native.cu"),
          "fast_grid_stride": (FAMILY / "better_grid_stride.md").read_text(),
          "slow": (FAMILY / "worse_row_walk.md").read_text(),
          "incorrect": _fenced(HACKS / "runtime/native_wrong.cu"),
          "compile_error": _fenced(HACKS / "runtime/native_compile_error.cu")}
GATE_HACKS = {p.name: (_fenced(p), LINEAR_RELU) for p in sorted(HACKS.glob("*.py")) if _expects(p)} | \
    {p.name: (_fenced(p), SCALE_ADD) for p in sorted((HACKS / "native").glob("*.cu")) if _expects(p)}
TAMPERING = ("native_mutates_input.cu", "native_half.cu")
DEGENERATE = ("native_zeros.cu", "native_unwritten.cu")
RUNTIME_HACKS = {name: (_fenced(HACKS / "runtime" / name), SCALE_ADD) for name in TAMPERING + DEGENERATE}


@pytest.fixture(scope="module")
def scored():
    cases = {**{k: (v, SCALE_ADD) for k, v in LADDER.items()}, **GATE_HACKS, **RUNTIME_HACKS}
    breakdowns = {}
    with Evaluator(Options(run_timeout=30)) as evaluator:
        reward = make_reward("unified", RewardConfig(), evaluator=evaluator)
        rewards = reward(prompts=["p"] * len(cases), completions=[c for c, _ in cases.values()],
                         reference=[t["reference"] for _, t in cases.values()],
                         kind=[t["kind"] for _, t in cases.values()])
        from cudaperf.rewards.scoring import Scorer

        scorer = Scorer(RewardConfig(), evaluator)
        for name in LADDER:  # the breakdowns, for the record (second run: compiles cached)
            breakdowns[name] = scorer.score_batch([LADDER[name]], [SCALE_ADD])[0]
    out = dict(zip(cases, rewards))
    if os.environ.get("CUDAPERF_REWARD_RESULTS"):
        with open(os.environ["CUDAPERF_REWARD_RESULTS"], "w") as f:
            for name, value in out.items():
                record = {"case": name, "reward": value}
                if name in breakdowns:
                    record["breakdown"] = breakdowns[name].to_json()
                f.write(json.dumps(record) + "\n")
    return out


def test_ladder(scored):
    assert scored["fast"] > scored["slow"] > scored["incorrect"] > scored["compile_error"] > RewardConfig().floor
    assert scored["fast_grid_stride"] > scored["slow"]
    assert scored["slow"] >= 0 > scored["incorrect"]


@pytest.mark.parametrize("name", sorted(GATE_HACKS) + list(TAMPERING))
def test_reward_hacks_get_the_floor(scored, name):
    assert scored[name] == RewardConfig().floor


@pytest.mark.parametrize("name", DEGENERATE)
def test_degenerate_outputs_stay_at_the_incorrect_level(scored, name):
    assert scored[name] == RewardConfig().incorrect < scored["slow"]
