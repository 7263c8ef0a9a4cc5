"""`cudaperf train` and `cudaperf refine`: parsed arguments -> the API calls (train.py, refine.py).
Raise ValueError or OSError for usage errors (the CLI's exit 2); return the exit code otherwise."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..rewards.config import preset
from ..rewards.scoring import Scorer

EXIT_OK, EXIT_FAILED = 0, 1


def _needs_rl() -> None:
    import importlib.util

    missing = [m for m in ("torch", "transformers", "trl", "datasets") if importlib.util.find_spec(m) is None]
    if missing:
        raise ValueError(f"{', '.join(missing)} not installed: pip install torch==2.13.0 'cudaperf[rl]' "
                         f"(install torch first, see README)")


def _device(ns: argparse.Namespace) -> None:
    """Without a GPU, `train` needs --cpu (transformers would stop on a CUDA setting, or TRL would train
    on nothing); on the CPU, rewards that run kernels are None, which the reward function warns about."""
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        return  # _needs_rl says what to install
    import torch

    if torch.cuda.is_available():
        return
    if not ns.cpu:
        raise ValueError("no CUDA GPU is visible to torch: add --cpu to train on the CPU (small models; "
                         "with --reward structural, since execution rewards need a GPU)")
    if ns.reward != "structural":
        print(f"cudaperf: warning: --reward {ns.reward} runs the candidates on a GPU, and there is none here: "
              "every reward will be None; use --reward structural to train on the CPU", file=sys.stderr)


def train(ns: argparse.Namespace) -> int:
    preset(ns.preset)  # a misspelt preset is said before anything about the machine
    _device(ns)
    _needs_rl()
    from .train import TrainConfig
    from .train import train as run

    config = TrainConfig(dataset=ns.dataset, model=ns.model, output_dir=ns.output_dir, reward=ns.reward,
                         preset=ns.preset, answer_format=ns.answer_format, turns=ns.turns or 1, gamma=ns.gamma,
                         lora_r=ns.lora_r, num_generations=ns.num_generations, batch_size=ns.batch_size,
                         max_completion_length=ns.max_completion_length, max_steps=ns.max_steps, epochs=ns.epochs,
                         learning_rate=ns.learning_rate, temperature=ns.temperature, cpu=ns.cpu, seed=ns.seed,
                         report_to=ns.report_to)
    print(json.dumps(run(config)))
    return EXIT_OK


def refine(ns: argparse.Namespace) -> int:
    from .generate import GenerationError, LocalGenerator, OpenAIGenerator
    from .refine import refine as run
    from .refine import write_jsonl
    from .tasks import read_tasks, task_from_file

    tasks = [task_from_file(ns.reference, ns.harness)] if ns.reference else read_tasks(ns.tasks)
    if ns.endpoint:
        key = os.environ.get(ns.api_key_env) if ns.api_key_env else None
        generator = OpenAIGenerator(ns.endpoint, ns.model or "default", key, ns.temperature, ns.max_tokens)
    elif ns.model:
        _needs_rl()
        generator = LocalGenerator(ns.model, max_new_tokens=ns.max_tokens, temperature=ns.temperature)
    else:
        raise ValueError("give --model PATH|ID (a local model) or --endpoint URL [--model NAME] (a server)")
    scorer = Scorer(preset(ns.preset))

    def trajectories():
        for task in tasks:
            trajectory = run(task, generator, ns.turns or 4, scorer, ns.reward, ns.answer_format, ns.gamma,
                             stop_when_correct=not ns.keep_going)
            best = trajectory.best()
            print(f"{task.get('task_id', 'task')}: {len(trajectory.turns)} turn(s), best "
                  f"{best.breakdown.status if best else 'none'} "
                  f"(reward {best.breakdown.reward if best else None})", file=sys.stderr)
            yield trajectory

    try:
        write_jsonl(trajectories(), ns.output or sys.stdout)
    except GenerationError as exc:
        print(f"cudaperf: generation failed: {exc}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK
