"""Multi-turn refinement episodes inside GRPO, through TRL's `rollout_func` (experimental in TRL).

Each sampled completion is a whole episode: the model answers, the answer is scored, the feedback is
appended (masked out of the loss through `env_mask`), the model answers again from everything so far,
up to `turns` answers or the first correct one.  The episode is credited with its discounted return
G_0 = r_0 + gamma r_1 + gamma^2 r_2 + ..., so every answer in it is trained towards what the whole
episode achieved, sooner being worth more."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..rewards.extract import extract
from ..rewards.scoring import Scorer
from . import prompts
from .feedback import feedback
from .refine import discounted_returns


def prompt_key(prompt: Any) -> str:
    """A dataset prompt (text or messages) as a dictionary key."""
    return prompt if isinstance(prompt, str) else json.dumps(prompt, sort_keys=True)


class Episodes:
    """The rollout function: `Episodes(...)(prompts, trainer)` returns TRL's rollout dict plus the
    extra fields `episode_return` and `episode_turns`, which reach the reward functions."""

    def __init__(self, scorer: Scorer, mode: str, turns: int, gamma: float, tasks: Mapping[str, Mapping[str, Any]]):
        self.scorer, self.mode, self.turns, self.gamma, self.tasks = scorer, mode, turns, gamma, tasks

    def __call__(self, batch_prompts: Sequence[Any], trainer: Any) -> dict[str, Any]:
        tokenizer = trainer.processing_class
        model = trainer.accelerator.unwrap_model(trainer.model)
        tasks = [self.tasks[prompt_key(p)] for p in batch_prompts]
        chat = not isinstance(batch_prompts[0], str)
        prompt_ids = [self._prompt_ids(tokenizer, p, chat) for p in batch_prompts]
        completion: list[list[int]] = [[] for _ in batch_prompts]
        mask: list[list[int]] = [[] for _ in batch_prompts]
        rewards: list[list[float | None]] = [[] for _ in batch_prompts]
        active = list(range(len(batch_prompts)))
        for turn in range(self.turns):
            answers = self._generate(model, tokenizer, [prompt_ids[i] + completion[i] for i in active], trainer.args)
            texts = tokenizer.batch_decode(answers, skip_special_tokens=True)
            scored = self.scorer.score_batch(texts, [tasks[i] for i in active], self.mode)
            going = []
            for i, ids, text, breakdown in zip(active, answers, texts, scored):
                completion[i] += ids
                mask[i] += [1] * len(ids)
                rewards[i].append(breakdown.reward)
                if turn + 1 < self.turns and breakdown.status != "correct":
                    note = feedback(breakdown, extract(text), self.scorer.config)
                    extra = _feedback_ids(tokenizer, note, chat)
                    completion[i] += extra
                    mask[i] += [0] * len(extra)
                    going.append(i)
            active = going
            if not active:
                break
        return {"prompt_ids": prompt_ids, "completion_ids": completion, "logprobs": None, "env_mask": mask,
                "episode_return": [discounted_returns(r, self.gamma)[0] for r in rewards],
                "episode_turns": [len(r) for r in rewards]}

    @staticmethod
    def _prompt_ids(tokenizer: Any, prompt: Any, chat: bool) -> list[int]:
        if chat:
            return list(tokenizer.apply_chat_template(prompt, add_generation_prompt=True, tokenize=True,
                                                      return_dict=False))
        return tokenizer(prompt, add_special_tokens=False)["input_ids"]

    @staticmethod
    def _generate(model: Any, tokenizer: Any, inputs: list[list[int]], args: Any) -> list[list[int]]:
        """Sample one answer per input (left-padded batch), cut after the first end-of-sequence token."""
        import torch

        width = max(len(ids) for ids in inputs)
        pad = tokenizer.pad_token_id
        ids = torch.tensor([[pad] * (width - len(x)) + x for x in inputs], device=model.device)
        attention = torch.tensor([[0] * (width - len(x)) + [1] * len(x) for x in inputs], device=model.device)
        with torch.no_grad():
            out = model.generate(input_ids=ids, attention_mask=attention, max_new_tokens=args.max_completion_length,
                                 do_sample=True, temperature=args.temperature, pad_token_id=pad)
        eos = tokenizer.eos_token_id
        answers = []
        for row in out[:, width:].tolist():
            answers.append(row[:row.index(eos) + 1] if eos in row else row)
        return answers


def _feedback_ids(tokenizer: Any, note: str, chat: bool) -> list[int]:
    """The feedback as the user's next turn, in the chat template's own markup when there is one."""
    message = prompts.feedback_message(note)
    if chat:
        before = [{"role": "user", "content": "."}, {"role": "assistant", "content": "."}]
        head = tokenizer.apply_chat_template(before, tokenize=False)
        full = tokenizer.apply_chat_template([*before, message], tokenize=False, add_generation_prompt=True)
        if full.startswith(head):
            return tokenizer(full[len(head):], add_special_tokens=False)["input_ids"]
    text = "\n\n" + prompts.plain_text([message])
    return tokenizer(text, add_special_tokens=False)["input_ids"]


def episode_reward(prompts: Sequence[Any], completions: Sequence[Any], completion_ids: Sequence[Any] | None = None,
                   episode_return: Sequence[float] | None = None, **kwargs: Any) -> list[float | None]:
    """The reward of a multi-turn episode: its discounted return, computed during the rollout."""
    if episode_return is None:
        raise ValueError("episode_reward needs the rollout field episode_return (train with Episodes)")
    log_metric, turns = kwargs.get("log_metric"), kwargs.get("episode_turns")
    if callable(log_metric) and turns:
        log_metric("episode/turns", sum(turns) / len(turns))
    return list(episode_return)
