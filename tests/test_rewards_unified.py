"""The unified reward's arithmetic on engine results built by hand: the status ladder, the floor for
every kind of reward hack, when the structural part counts, the presets, and the config's guards."""

from __future__ import annotations

import math

import pytest

from cudaperf.rewards import RewardConfig, preset
from cudaperf.rewards.execution.result import ExecResult
from cudaperf.rewards.structural import KernelScore, StructuralScore, floor
from cudaperf.rewards.unified import combine

GOOD_SHAPE = StructuralScore(0.9, {"coalescing": 1.0}, (KernelScore("scale_add", 0.9, {}),))
POOR_SHAPE = StructuralScore(0.3, {"coalescing": 0.1}, (KernelScore("scale_add", 0.3, {}),))


def _correct(speedup: float | None, **extra) -> ExecResult:
    return ExecResult("correct", compiled=True, speedup=speedup, kernels_launched=["scale_add"],
                      time_ms={"candidate": 1.0, "reference": speedup}, **extra)


def _reward(result: ExecResult, shape: StructuralScore = GOOD_SHAPE, config: RewardConfig | None = None) -> float:
    return combine(result, shape, config or RewardConfig()).reward


def test_status_ladder():
    ladder = [_reward(_correct(2.0)), _reward(_correct(0.5)), _reward(ExecResult("incorrect", "trial 0: output 0")),
              _reward(ExecResult("runtime_error", "illegal address")), _reward(ExecResult("timeout")),
              _reward(ExecResult("compile_error", "error: x")), _reward(ExecResult("rejected", rule="torch-op"))]
    assert ladder[0] > ladder[1] > ladder[2] > ladder[3] == ladder[4] > ladder[5] > ladder[6] == RewardConfig().floor
    assert min(ladder[:2]) >= 0 > max(ladder[2:])


@pytest.mark.parametrize("result", [
    ExecResult("rejected", "calls torch.matmul", rule="torch-op"),
    ExecResult("incorrect", "trial 0: input 0 was modified differently from the reference (in-place edit)"),
    ExecResult("incorrect", "trial 0: output 0 is a __main__.Sub, not a plain torch.Tensor"),
    ExecResult("incorrect", "trial 1: output 0", flags=["gate:precision-downgrade: __half arithmetic"]),
    ExecResult("correct", compiled=True, speedup=40.0, kernels_launched=["scale_add"],
               flags=["below-memory-roofline: 0.0001 ms < 0.01 ms to move 67108864 bytes at 4800 GB/s"]),
], ids=["gate", "in-place", "lazy-output", "precision", "below-roofline"])
def test_reward_hacks_get_the_floor(result):
    breakdown = combine(result, GOOD_SHAPE, RewardConfig())
    assert breakdown.reward == RewardConfig().floor and breakdown.floored
    assert not breakdown.structural_counted


@pytest.mark.parametrize("rule", ["constant-output", "unwritten-output", "wrong-values", "nan-inf"])
def test_degenerate_and_wrong_outputs_get_the_incorrect_level(rule):
    """An honest bug looks like a constant or unwritten output: the incorrect level, not the floor
    (docs/rewards.md; tests/test_rewards_gpu.py checks the same on the H200)."""
    breakdown = combine(ExecResult("incorrect", "trial 0: output 0", rule=rule), GOOD_SHAPE, RewardConfig())
    assert breakdown.reward == RewardConfig().incorrect and not breakdown.floored


def test_structure_counts_only_for_correct_candidates_that_ran_their_own_kernels():
    config = RewardConfig()
    assert _reward(_correct(1.0)) - _reward(_correct(1.0), POOR_SHAPE) == pytest.approx(0.5 * (0.9 - 0.3))
    for launched, counted in ((["void ns::scale_add<float>(float const*, float*)"], True),
                              (["at::native::vectorized_scale_add_kernel<4>(int)"], False), ([], False)):
        result = _correct(1.0)
        result.kernels_launched = launched
        assert combine(result, GOOD_SHAPE, config).structural_counted is counted
    incorrect = combine(ExecResult("incorrect", "x", compiled=True, kernels_launched=["scale_add"]), GOOD_SHAPE, config)
    assert incorrect.reward == config.incorrect and not incorrect.structural_counted
    unread = combine(_correct(1.0), floor(config, "unreadable"), config)
    assert unread.reward == config.correct_bonus and not unread.structural_counted


def test_execution_schemes():
    assert _reward(_correct(4.0), config=RewardConfig(structural_weight=0)) == 2.0     # 1 + clip(log2 4, 1)
    assert _reward(_correct(0.25), config=RewardConfig(structural_weight=0)) == 0.0
    assert _reward(_correct(math.sqrt(2)), config=RewardConfig(structural_weight=0)) == pytest.approx(1.5)
    milestone = preset("milestone", structural_weight=0.0)
    assert [_reward(r, config=milestone) for r in (_correct(1.0), _correct(1.2), _correct(1.2, speedup_compile=1.1))] \
        == [1.0, 2.0, 3.0]
    assert _reward(_correct(5.0), config=preset("speedup", structural_weight=0.0)) == pytest.approx(3.3)
    assert _reward(_correct(None)) == pytest.approx(1.0 + 0.5 * 0.9)   # correctness only (timing off)


def test_no_gpu_is_unmeasured_not_punished():
    breakdown = combine(ExecResult("no_gpu", "no CUDA device", compiled=True), GOOD_SHAPE, RewardConfig())
    assert breakdown.reward is None and breakdown.execution is None


def test_config_guards_and_presets():
    with pytest.raises(ValueError):
        RewardConfig(execution="elo")
    with pytest.raises(ValueError):
        RewardConfig(incorrect=-2.0)           # would rank wrong answers below compile errors
    with pytest.raises(ValueError):
        RewardConfig(weights={"beauty": 1.0})
    with pytest.raises(ValueError):
        preset("nonexistent")
    assert preset("execution_only").structural_weight == 0.0
    assert RewardConfig().to_json()["weights"]["coalescing"] == 0.4
