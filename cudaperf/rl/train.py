"""GRPO training (`cudaperf train`) through TRL's GRPOTrainer: a task dataset becomes prompts (the
templates of prompts.py), a local model learns from cudaperf's rewards, optionally through LoRA
adapters (peft), optionally in multi-turn refinement episodes (episodes.py).  The same code runs a
tiny randomly initialised model on a CPU (the test) and a real model on GPUs.  Models and
tokenizers are read from local directories only."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rewards.config import preset
from ..rewards.scoring import MODES, Scorer
from ..rewards.trl import make_reward
from . import prompts
from .episodes import Episodes, episode_reward, prompt_key
from .tasks import REQUIRED


@dataclass
class TrainConfig:
    dataset: str                      # tasks: JSON lines or parquet with kind, reference (, harness, task_id)
    model: str                        # a local directory with the model and its tokenizer
    output_dir: str
    reward: str = "unified"           # structural | execution | unified
    preset: str = "default"           # a RewardConfig preset
    answer_format: str = "native"     # torch2cuda answers: native (CUDA + launch spec) or kernelbench
    turns: int = 1                    # > 1: multi-turn refinement episodes
    gamma: float = 0.4                # discount of later turns' rewards
    lora_r: int = 0                   # > 0: train LoRA adapters of this rank (needs peft)
    lora_alpha: int = 32
    num_generations: int = 8
    batch_size: int = 8               # per device; a multiple of num_generations
    max_completion_length: int = 1024
    max_steps: int = -1
    epochs: float = 1.0
    learning_rate: float = 1e-6
    temperature: float = 1.0
    cpu: bool = False
    seed: int = 0
    logging_steps: int = 1
    report_to: str = "none"
    save: bool = True
    grpo: dict[str, Any] = field(default_factory=dict)   # further GRPOConfig fields


def load_tasks(path: str, answer_format: str, tokenizer: Any) -> Any:
    """The dataset with a `prompt` column: chat messages when the tokenizer has a chat template,
    plain text otherwise."""
    from datasets import load_dataset

    kind = "parquet" if Path(path).suffix == ".parquet" else "json"
    dataset = load_dataset(kind, data_files=str(path), split="train")
    missing = [c for c in REQUIRED if c not in dataset.column_names]
    if missing:
        raise ValueError(f"{path}: the dataset needs the column(s) {', '.join(missing)}")
    if "harness" in dataset.column_names:
        dataset = dataset.map(lambda row: {"harness": json.dumps(row["harness"]) if isinstance(row["harness"], dict)
                                           else row["harness"]})
    chat = bool(getattr(tokenizer, "chat_template", None))

    def prompt(row: dict) -> dict:
        conversation = prompts.messages(row, answer_format)
        return {"prompt": conversation if chat else prompts.plain_text(conversation)}

    return dataset.map(prompt)


def _lora(config: TrainConfig) -> Any:
    if config.lora_r <= 0:
        return None
    try:
        from peft import LoraConfig
    except ImportError:
        raise RuntimeError("LoRA needs peft: pip install 'cudaperf[rl]'") from None
    return LoraConfig(r=config.lora_r, lora_alpha=config.lora_alpha, target_modules="all-linear",
                      task_type="CAUSAL_LM")


def build_trainer(config: TrainConfig) -> Any:
    """A ready GRPOTrainer (call .train()); raises ValueError for unusable settings."""
    if config.reward not in MODES:
        raise ValueError(f"reward must be one of {', '.join(MODES)}, got {config.reward!r}")
    if config.turns < 1:
        raise ValueError("turns must be at least 1")
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    tokenizer = AutoTokenizer.from_pretrained(config.model, local_files_only=True)
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(config.model, local_files_only=True)
    dataset = load_tasks(config.dataset, config.answer_format, tokenizer)
    scorer = Scorer(preset(config.preset))
    args = GRPOConfig(output_dir=config.output_dir, use_cpu=config.cpu, num_generations=config.num_generations,
                      per_device_train_batch_size=config.batch_size,
                      max_completion_length=config.max_completion_length, max_steps=config.max_steps,
                      num_train_epochs=config.epochs, learning_rate=config.learning_rate,
                      temperature=config.temperature, seed=config.seed, logging_steps=config.logging_steps,
                      save_strategy="no", report_to=config.report_to, **config.grpo)
    rollout = None
    if config.turns == 1:
        rewards = [make_reward(config.reward, scorer.config)]
    else:
        tasks = {prompt_key(row["prompt"]): row for row in dataset}
        rollout = Episodes(scorer, config.reward, config.turns, config.gamma, tasks)
        rewards = [episode_reward]
    return GRPOTrainer(model=model, reward_funcs=rewards, args=args, train_dataset=dataset,
                       processing_class=tokenizer, peft_config=_lora(config), rollout_func=rollout)


def train(config: TrainConfig) -> dict[str, Any]:
    """Train; save the model (or adapters) to output_dir; return the trainer's final metrics."""
    trainer = build_trainer(config)
    output = trainer.train()
    if config.save:
        trainer.save_model(config.output_dir)
    return {"global_step": output.global_step, **output.metrics}
