"""cudaperf's reward for verl.  Point verl's custom reward function at this file:

    python -m verl.trainer.main_ppo ... reward_model.reward_manager=batch \
        custom_reward_function.path=examples/trainers/verl_reward.py \
        custom_reward_function.name=compute_score_batch \
        +custom_reward_function.reward_kwargs.mode=unified

Each row's `reward_model.ground_truth` is the reference source (or JSON with `reference`, `kind`,
`harness`), `data_source` e.g. `cudaperf/torch2cuda`.  With the naive reward manager use
`custom_reward_function.name=compute_score` (one response per call: slower, no batching).  To run the
engine on the Ray cluster verl already uses, replace the two names below with
`make_compute_score(evaluator=Evaluator(backend="ray", address="auto"))`.

Run directly, it scores the scale_add example as verl's batch reward manager would call it."""

from cudaperf.rewards.verl import compute_score, compute_score_batch

__all__ = ["compute_score", "compute_score_batch"]

if __name__ == "__main__":
    from pathlib import Path

    example = Path(__file__).parents[1] / "eval" / "scale_add"
    answer = "My kernel:\n```cuda\n" + (example / "candidate_native.cu").read_text() + "\n```\n"
    scores = compute_score_batch(data_sources=["cudaperf/torch2cuda"] * 2, solution_strs=[answer, "no code"],
                                 ground_truths=[(example / "reference.py").read_text()] * 2,
                                 extra_infos=[{}, {}])
    for score in scores:
        print(score)
