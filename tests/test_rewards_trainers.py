"""The verl and OpenRLHF adapters, called by the trainers' own code: verl's custom-reward loader and
batch reward manager, OpenRLHF's single-turn executor that loads `--remote_rm_url reward.py`.  Both
trainers are installed without their GPU dependencies (`.ci/trainer-packages.txt`); the tests skip
where they are absent.  Scores are checked on the CPU test mode of the engine (KernelBench-format
candidates on CPU tensors: honest, wrong) and, through the examples, on a native candidate that only
compiles here (not measurable without a GPU) and answers without code.  Importing verl and OpenRLHF
and starting the engine take 15 to 25 s each on a busy 2-core machine: those tests are `slow`; the
structural mode, which needs neither, checks the shapes in the default run."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path

import pytest

from cudaperf.rewards import RewardConfig
from cudaperf.rewards.execution import compile as cc

ROOT = Path(__file__).parents[1]
EXAMPLE = ROOT / "examples" / "eval" / "scale_add"
SCALE_ADD = (EXAMPLE / "reference.py").read_text()
NATIVE = (EXAMPLE / "candidate_native.cu").read_text()
needs_compiler = pytest.mark.skipif(cc.available_backend() is None, reason="neither NVRTC nor nvcc")
torch = pytest.importorskip("torch")

REFERENCE = textwrap.dedent('''
    import torch, torch.nn as nn
    class Model(nn.Module):
        def forward(self, a, b):
            return 2.0 * a + b
    def get_inputs():
        return [torch.randn(4096), torch.randn(4096)]
    def get_init_inputs():
        return []
''')


def _module(body: str) -> str:
    return "```python\n" + textwrap.dedent(f'''
        import torch, torch.nn as nn
        class ModelNew(nn.Module):
            def forward(self, a, b):
                {body}
    ''') + "```\n"


HONEST, WRONG = _module("return 2.0 * a + b"), _module("return 2.0 * a - b")


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAPERF_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def cpu_engine():
    from cudaperf.rewards.execution.api import Evaluator, Options

    with Evaluator(Options(device="cpu", gate=False, time=False, trials=2)) as evaluator:
        yield evaluator


class _Bytes:
    """A byte-level tokenizer: verl's reward manager only decodes response ids with it."""

    @staticmethod
    def encode(text: str) -> list[int]:
        return list(text.encode())

    @staticmethod
    def decode(ids, skip_special_tokens: bool = True) -> str:
        return bytes(int(i) for i in ids if int(i) > 0).decode()


def _verl_batch(responses: list[str], ground_truths: list[str], data_source: str = "cudaperf/torch2cuda"):
    """A DataProto shaped as verl's rollout hands it to the reward manager (left-padded prompts,
    right-padded responses, one attention mask over both)."""
    import numpy as np
    from verl import DataProto

    prompts = [_Bytes.encode("p")] * len(responses)
    answers = [_Bytes.encode(r) for r in responses]
    width = max(map(len, answers))
    response_ids = torch.tensor([a + [0] * (width - len(a)) for a in answers])
    prompt_ids = torch.tensor(prompts)
    mask = torch.cat([torch.ones_like(prompt_ids), (response_ids > 0).long()], dim=1)
    return DataProto.from_dict(
        tensors={"prompts": prompt_ids, "responses": response_ids, "attention_mask": mask},
        non_tensors={"data_source": np.array([data_source] * len(responses), dtype=object),
                     "reward_model": np.array([{"ground_truth": g} for g in ground_truths], dtype=object),
                     "extra_info": np.array([{} for _ in responses], dtype=object)})


@pytest.mark.slow
@needs_compiler
def test_verl_loads_the_example_and_its_batch_reward_manager_scores_through_it():
    omegaconf = pytest.importorskip("omegaconf")
    reward = pytest.importorskip("verl.trainer.ppo.reward")
    from verl.workers.reward_manager.batch import BatchRewardManager

    config = omegaconf.OmegaConf.create({"reward": {"custom_reward_function": {
        "path": str(ROOT / "examples" / "trainers" / "verl_reward.py"), "name": "compute_score_batch",
        "reward_kwargs": {"mode": "execution"}}}})
    compute_score = reward.get_custom_reward_fn(config)
    broken = NATIVE.replace("alpha * x.x", "alpha * x.q")
    answers = [f"```cuda\n{NATIVE}\n```", f"```cuda\n{broken}\n```", "I cannot help with that."]
    manager = BatchRewardManager(tokenizer=_Bytes(), num_examine=0, compute_score=compute_score)
    out = manager(_verl_batch(answers, [SCALE_ADD] * 3), return_dict=True)
    rewards = out["reward_tensor"].sum(dim=1).tolist()
    assert rewards == [0.0, RewardConfig().compile_error, RewardConfig().floor]
    assert out["reward_extra_info"]["measured"] == [0.0, 1.0, 1.0]   # no GPU: the native one only compiled


@pytest.mark.slow
def test_verl_compute_score_shapes_and_scores(cpu_engine):
    from cudaperf.rewards.verl import make_compute_score

    compute_score, compute_score_batch = make_compute_score(evaluator=cpu_engine)
    ok = compute_score("cudaperf/torch2cuda", HONEST, REFERENCE, {"kind": "torch2cuda"})
    wrong, honest = compute_score_batch(["cudaperf/torch2cuda"] * 2, [WRONG, HONEST], [REFERENCE] * 2, None,
                                        mode="execution")
    assert ok["correct"] == honest["correct"] == 1.0 and ok["score"] >= 0
    assert wrong["correct"] == 0.0 and wrong["score"] == RewardConfig().incorrect < honest["score"]
    assert set(ok) == {"score", "measured", "correct", "structural"}


@pytest.mark.slow
@needs_compiler
def test_openrlhf_loads_the_example_as_remote_reward_model():
    agent = pytest.importorskip("openrlhf.utils.agent")
    executor = agent.SingleTurnAgentExecutor(remote_rm_url=str(ROOT / "examples" / "trainers" / "openrlhf_reward.py"))
    prompt = "Write a CUDA kernel.\n"
    queries = [prompt + f"```cuda\n{NATIVE}\n```", prompt + "no code"]
    infos = asyncio.run(executor._fetch_rewards_via_func(queries, [prompt] * 2, [SCALE_ADD] * 2))
    assert [i["rewards"].tolist() for i in infos] == [[0.0], [RewardConfig().floor]]
    for info in infos:   # what OpenRLHF's samples generator does with each
        assert torch.tensor([info["rewards"]]).numel() == 1
        assert {k: v.flatten()[0].item() for k, v in info["extra_logs"].items()}.keys() == \
            {"measured", "correct", "structural"}


@pytest.mark.slow
def test_openrlhf_reward_func_scores_and_reads_json_labels(cpu_engine):
    import json

    from cudaperf.rewards.openrlhf import make_reward_func

    reward_func = make_reward_func("execution", evaluator=cpu_engine)
    label = json.dumps({"reference": REFERENCE, "kind": "torch2cuda"})
    out = reward_func(["q: " + HONEST, "q: " + WRONG], ["q: ", "q: "], [label, REFERENCE])
    assert out["extra_logs"]["correct"].tolist() == [1.0, 0.0]
    assert out["rewards"][1].item() == RewardConfig().incorrect < out["rewards"][0].item()


def test_both_adapters_return_the_trainers_shapes_in_structural_mode():
    from cudaperf.rewards.openrlhf import make_reward_func
    from cudaperf.rewards.verl import compute_score, compute_score_batch

    answer = f"```cuda\n{NATIVE}\n```"
    single = compute_score("cudaperf/torch2cuda", answer, SCALE_ADD, None, mode="structural")
    batch = compute_score_batch(["x", "x"], [answer, "no code"], [SCALE_ADD] * 2, [{}, {}], mode="structural")
    assert single == batch[0] and single["score"] > batch[1]["score"] == RewardConfig().structural_floor
    out = make_reward_func("structural")(["p" + answer, "p no code"], ["p", "p"], None)
    assert out["rewards"].tolist() == pytest.approx([b["score"] for b in batch])
    assert set(out["extra_logs"]) == {"measured", "correct", "structural"}
