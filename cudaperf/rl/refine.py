"""Iterative refinement (`cudaperf refine`): generate, score, turn the result into feedback, and
generate again from the whole conversation, up to K turns.  Each turn's reward is kept, and the
discounted return G_t = r_t + gamma G_{t+1} credits an attempt with what it led to.  Trajectories
are written as JSON lines (`cudaperf.trajectory/1`), one per task."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..rewards.config import RewardBreakdown, RewardConfig
from ..rewards.extract import extract
from ..rewards.scoring import Scorer
from . import prompts
from .feedback import feedback
from .generate import Generator

SCHEMA = "cudaperf.trajectory/1"


def discounted_returns(rewards: list[float | None], gamma: float) -> list[float]:
    """G_t = r_t + gamma * G_{t+1}; a reward that could not be measured (None) counts 0."""
    out, running = [], 0.0
    for r in reversed(rewards):
        running = (r or 0.0) + gamma * running
        out.append(running)
    return out[::-1]


@dataclass
class Turn:
    completion: str
    breakdown: RewardBreakdown
    feedback: str


@dataclass
class Trajectory:
    task: Mapping[str, Any]
    gamma: float
    turns: list[Turn] = field(default_factory=list)

    @property
    def rewards(self) -> list[float | None]:
        return [t.breakdown.reward for t in self.turns]

    def best(self) -> Turn | None:
        scored = [t for t in self.turns if t.breakdown.reward is not None]
        return max(scored, key=lambda t: t.breakdown.reward) if scored else None

    def to_json(self) -> dict:
        returns = discounted_returns(self.rewards, self.gamma)
        best = self.best()
        return {"schema": SCHEMA, "task_id": self.task.get("task_id"), "kind": self.task.get("kind"),
                "gamma": self.gamma, "best_turn": self.turns.index(best) if best else None,
                "turns": [{"turn": i, "completion": t.completion, "reward": t.breakdown.reward, "return": g,
                           "status": t.breakdown.status, "feedback": t.feedback, "breakdown": t.breakdown.to_json()}
                          for i, (t, g) in enumerate(zip(self.turns, returns))]}


def refine(task: Mapping[str, Any], generator: Generator, turns: int = 4, scorer: Scorer | None = None,
           mode: str = "unified", answer_format: str = "native", gamma: float = 0.4,
           stop_when_correct: bool = True) -> Trajectory:
    """Refine one task (dataset columns, see tasks.py) for up to `turns` turns."""
    if turns < 1:
        raise ValueError("turns must be at least 1")
    scorer = scorer or Scorer()
    config: RewardConfig = scorer.config
    conversation = prompts.messages(task, answer_format)
    trajectory = Trajectory(task, gamma)
    for _ in range(turns):
        completion = generator(conversation)
        breakdown = scorer.score_batch([completion], [task], mode)[0]
        note = feedback(breakdown, extract(completion), config)
        trajectory.turns.append(Turn(completion, breakdown, note))
        if stop_when_correct and breakdown.status == "correct":
            break
        conversation = [*conversation, {"role": "assistant", "content": completion}, prompts.feedback_message(note)]
    return trajectory


def write_jsonl(trajectories: Iterable[Trajectory], out: TextIO | str | Path) -> None:
    if isinstance(out, str | Path):
        with open(out, "w", encoding="utf-8") as f:
            write_jsonl(trajectories, f)
        return
    for trajectory in trajectories:
        out.write(json.dumps(trajectory.to_json()) + "\n")
        out.flush()
