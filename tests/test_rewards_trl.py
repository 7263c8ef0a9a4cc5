"""The TRL plug-ins: the reward-function signature GRPOTrainer calls, logging through log_metric and
log_extra, tasks read from dataset columns, batches through the engine (compile stage on the CPU),
and the floor for runtime tampering through the real worker pipeline (CPU test mode, needs torch)."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cudaperf.rewards import RewardConfig, execution_reward, make_reward, score, structural_reward, unified_reward
from cudaperf.rewards.execution import compile as cc

ROOT = Path(__file__).parents[1]
SCALE_ADD = (ROOT / "examples" / "eval" / "scale_add" / "reference.py").read_text()
NATIVE = (ROOT / "examples" / "eval" / "scale_add" / "candidate_native.cu").read_text()
needs_compiler = pytest.mark.skipif(cc.available_backend() is None, reason="neither NVRTC nor nvcc")


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAPERF_CACHE_DIR", str(tmp_path / "cache"))


def _answer(code: str, lang: str = "cuda") -> str:
    return f"Here is my kernel.\n\n```{lang}\n{code}\n```\n"


@pytest.mark.parametrize("func", [structural_reward, execution_reward, unified_reward])
def test_trl_signature(func):
    params = inspect.signature(func).parameters
    assert list(params)[:3] == ["prompts", "completions", "completion_ids"]
    assert params["completion_ids"].default is None
    assert any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    assert func.__name__ in ("structural_reward", "execution_reward", "unified_reward")


def test_structural_reward_called_as_grpo_trainer_calls_it():
    logged, extra = {}, {}
    completions = [[{"role": "assistant", "content": _answer(NATIVE)}], [{"role": "assistant", "content": "no idea"}]]
    rewards = structural_reward(prompts=[[{"role": "user", "content": "p"}]] * 2, completions=completions,
                                completion_ids=[[1, 2], [3]], reference=[SCALE_ADD] * 2, kind=["torch2cuda"] * 2,
                                trainer_state=object(), log_metric=logged.__setitem__, log_extra=extra.__setitem__)
    assert len(rewards) == 2 and all(isinstance(r, float) for r in rewards)
    assert rewards[0] > rewards[1] == RewardConfig().structural_floor
    assert logged["structural_reward/coalescing"] == 1.0 and logged["structural_reward/status/no_code"] == 0.5
    assert extra["structural_reward_status"] == ["static", "no_code"]


def test_execution_rewards_need_the_task_columns():
    with pytest.raises(ValueError, match="reference"):
        execution_reward(prompts=["p"], completions=[_answer(NATIVE)])


@needs_compiler
def test_execution_and_unified_rewards_on_a_machine_without_gpu():
    broken = NATIVE.replace("alpha * x.x", "alpha * x.q")
    completions = [_answer(NATIVE), _answer(broken), "I cannot help with that."]
    columns = {"reference": [SCALE_ADD] * 3, "kind": ["torch2cuda"] * 3}
    config = RewardConfig()
    for func in (execution_reward, unified_reward):
        rewards = func(prompts=["p"] * 3, completions=completions, **columns)
        assert rewards == [None, config.compile_error, config.floor]  # None: compiled, not runnable here
    breakdown = score({"reference": SCALE_ADD, "kind": "torch2cuda"}, _answer(broken))
    assert breakdown.status == "compile_error" and "has no member" in breakdown.reason


REFERENCE = textwrap.dedent('''
    import torch, torch.nn as nn
    class Model(nn.Module):
        def __init__(self, alpha):
            super().__init__()
            self.alpha = alpha
        def forward(self, a, b):
            return self.alpha * a + b
    def get_inputs():
        return [torch.randn(4096), torch.randn(4096)]
    def get_init_inputs():
        return [2.0]
''')


def _module(body: str) -> str:
    return _answer(textwrap.dedent(f'''
        import torch, torch.nn as nn
        class ModelNew(nn.Module):
            def __init__(self, alpha):
                super().__init__()
                self.alpha = alpha
            def forward(self, a, b):
                {body}
    '''), "python")


@pytest.mark.torch
def test_runtime_tampering_gets_the_floor_through_the_worker_pipeline():
    pytest.importorskip("torch")
    from cudaperf.rewards.execution.api import Evaluator, Options

    answers = {"honest": "return self.alpha * a + b", "wrong": "return self.alpha * a - b",
               "mutates_input": "a.add_(1.0); return self.alpha * (a - 1.0) + b",
               "lazy_output": "return (self.alpha * a + b).as_subclass(type('Sub', (torch.Tensor,), {}))"}
    config = RewardConfig()
    with Evaluator(Options(device="cpu", gate=False, run_timeout=20, timing_trials=30)) as evaluator:
        reward = make_reward("unified", config, evaluator=evaluator)
        got = dict(zip(answers, reward(prompts=["p"] * 4, completions=[_module(b) for b in answers.values()],
                                       reference=[REFERENCE] * 4, kind=["torch2cuda"] * 4)))
    assert got["honest"] >= 0 > got["wrong"] == config.incorrect
    assert got["mutates_input"] == got["lazy_output"] == config.floor


def test_importing_rewards_and_rl_loads_no_ml_framework():
    code = ("import sys, cudaperf.rewards as r, cudaperf.rl.train, cudaperf.rl.refine; r.unified_reward; r.score; "
            "print(sorted(m for m in ('torch', 'trl', 'transformers', 'datasets', 'cupy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
