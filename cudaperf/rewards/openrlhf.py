"""A reward function in OpenRLHF's shape: `reward_func(queries, prompts, labels)`, the function a
Python file given as `--remote_rm_url reward.py` must define (OpenRLHF >= 0.8; it calls it from
several threads at once, one sample each).

`queries` are prompt and response decoded together; the response is what follows the prompt (the
whole query when the decoded text does not start with the prompt: the code blocks extracted are then
the response's, as the extractor takes the model's `ModelNew` or kernels).  `labels` (`--label_key`)
are the reference source of a torch2cuda task, or JSON text with the `reference`, `kind`, `harness`
columns.  Returns OpenRLHF's dict: `rewards` and `scores` tensors and numeric `extra_logs`; a reward
that is not measurable here (no GPU) is 0.0 with `measured` 0.  Needs torch (as OpenRLHF does)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .config import RewardConfig
from .execution.api import Evaluator
from .scoring import Scorer, task_columns


def make_reward_func(mode: str = "unified", config: RewardConfig | None = None,
                     evaluator: Evaluator | None = None) -> Callable[..., dict]:
    """An OpenRLHF reward_func scoring in `mode` under `config` with `evaluator` (default: the
    process-wide shared engine; `Evaluator(backend="ray", address="auto")` for OpenRLHF's cluster)."""
    scorer = Scorer(config, evaluator)

    def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[str] | None = None) -> dict:
        import torch

        responses = [q[len(p):] if q.startswith(p) else q for q, p in zip(queries, prompts)]
        tasks = None if mode == "structural" else [task_columns(label) for label in labels or []]
        breakdowns = scorer.score_batch(responses, tasks, mode)
        rewards = torch.tensor([b.reward if b.reward is not None else 0.0 for b in breakdowns])
        logs = {"measured": [float(b.reward is not None) for b in breakdowns],
                "correct": [float(b.status == "correct") for b in breakdowns],
                "structural": [b.structural for b in breakdowns]}
        return {"rewards": rewards, "scores": rewards.clone(),
                "extra_logs": {k: torch.tensor(v) for k, v in logs.items()}}

    return reward_func


reward_func = make_reward_func()
