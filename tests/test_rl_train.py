"""GRPO end to end on the CPU, offline: a randomly initialised 2-layer Qwen2 (hidden 64) with a
byte-level BPE tokenizer trained here learns from the shipped structural reward (single-turn and in
multi-turn refinement episodes), `cudaperf train` runs with LoRA adapters, and refinement runs on a
local transformers model.  Two kernels are single tokens of the tokenizer and their logits are
raised during sampling, so some completions hold code and the rewards differ within a group."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # nothing here may reach a hub
torch = pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("datasets")
transformers = pytest.importorskip("transformers")
pytestmark = pytest.mark.torch

from cudaperf.cli import main  # noqa: E402
from cudaperf.rewards.scoring import Scorer  # noqa: E402
from cudaperf.rl.generate import LocalGenerator  # noqa: E402
from cudaperf.rl.refine import refine  # noqa: E402
from cudaperf.rl.train import TrainConfig, build_trainer  # noqa: E402

ROOT = Path(__file__).parents[1]
COALESCED = ('\n```cuda\nextern "C" __global__ void k(const float* x, float* y, int n) { int i = blockIdx.x * '
             'blockDim.x + threadIdx.x; if (i < n) y[i] = 2.0f * x[i]; }\n```\n')
CHUNKED = ('\n```cuda\nextern "C" __global__ void k(const float* x, float* y, int n) { int i = (blockIdx.x * '
           'blockDim.x + threadIdx.x) * 32; for (int j = 0; j < 32; ++j) if (i + j < n) y[i + j] = 2.0f * x[i + j]; }'
           '\n```\n')


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a model this small gains nothing from threads, which only contend on a busy machine
    root = tmp_path_factory.mktemp("tiny")
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["<|endoftext|>", "<pad>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    bpe.train_from_iterator(["Write CUDA kernels for this PyTorch module."] * 20, trainer)
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|endoftext|>", pad_token="<pad>")
    tokenizer.add_tokens([COALESCED, CHUNKED])
    tokenizer.save_pretrained(root / "model")
    config = transformers.Qwen2Config(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128,
                                      num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                                      max_position_embeddings=4096, eos_token_id=tokenizer.eos_token_id,
                                      pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.eos_token_id)
    torch.manual_seed(0)
    transformers.Qwen2ForCausalLM(config).save_pretrained(root / "model")
    tasks = root / "tasks.jsonl"
    torch_task = {"kind": "torch2cuda", "reference": (ROOT / "examples/eval/scale_add/reference.py").read_text()}
    c_task = {"kind": "c2cuda", "reference": (ROOT / "examples/eval/saxpy_c/reference.c").read_text()}
    rows = [{"task_id": f"t{i}", **t} for i, t in enumerate([torch_task, c_task] * 4)]
    tasks.write_text("".join(json.dumps(row) + "\n" for row in rows))
    code_ids = tokenizer.convert_tokens_to_ids([COALESCED, CHUNKED])
    yield {"model": str(root / "model"), "tasks": str(tasks), "root": root,
           "bias": {"generation_kwargs": {"sequence_bias": [[[i], 4.0] for i in code_ids]}}}
    torch.set_num_threads(threads)


def _config(tiny: dict, **over) -> TrainConfig:
    base = dict(dataset=tiny["tasks"], model=tiny["model"], output_dir=str(tiny["root"] / "out"), reward="structural",
                num_generations=4, batch_size=4, max_completion_length=24, max_steps=3, cpu=True,
                learning_rate=1e-3, grpo=tiny["bias"], save=False)
    return TrainConfig(**{**base, **over})


def _train(config: TrainConfig) -> tuple[list[dict], int]:
    trainer = build_trainer(config)
    before = {n: p.detach().clone() for n, p in trainer.model.named_parameters() if p.requires_grad}
    trainer.train()
    changed = sum(not torch.equal(before[n], p) for n, p in trainer.model.named_parameters() if n in before)
    return [h for h in trainer.state.log_history if "reward" in h], changed


def test_grpo_learns_from_the_structural_reward(tiny):
    logs, changed = _train(_config(tiny))
    assert len(logs) == 3
    assert max(h["reward_std"] for h in logs) > 0 and all(h["reward"] > 0 for h in logs)
    assert any("structural_reward/coalescing" in h for h in logs)   # components logged through log_metric
    assert changed > 0


def test_multi_turn_episodes_train_on_discounted_returns(tiny):
    logs, changed = _train(_config(tiny, turns=2, gamma=0.5, max_steps=2))
    assert len(logs) == 2 and all(h["episode/turns"] == 2.0 for h in logs)  # a static reward is never "correct"
    assert "rewards/episode_reward/mean" in logs[0] and changed > 0


def test_cli_trains_lora_adapters(tiny, tmp_path, capsys):
    out = tmp_path / "adapters"
    code = main(["train", "--dataset", tiny["tasks"], "--model", tiny["model"], "-o", str(out),
                 "--reward", "structural", "--num-generations", "4", "--batch-size", "4",
                 "--max-completion-length", "16", "--max-steps", "1", "--cpu", "--lora-r", "4"])
    assert code == 0 and json.loads(capsys.readouterr().out.strip().splitlines()[-1])["global_step"] == 1
    assert (out / "adapter_config.json").is_file()


def test_cli_refuses_an_unknown_preset(tiny, tmp_path, capsys):
    assert main(["train", "--dataset", tiny["tasks"], "--model", tiny["model"], "-o", str(tmp_path),
                 "--preset", "fastest"]) == 2
    assert "unknown reward preset" in capsys.readouterr().err


def test_refine_with_a_local_model(tiny):
    task = json.loads(Path(tiny["tasks"]).read_text().splitlines()[0])
    trajectory = refine(task, LocalGenerator(tiny["model"], max_new_tokens=12), turns=2, scorer=Scorer(),
                        mode="structural")
    assert len(trajectory.turns) == 2 and all(t.breakdown.status in ("static", "no_code") for t in trajectory.turns)
