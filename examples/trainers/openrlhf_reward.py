"""cudaperf's reward for OpenRLHF.  Pass this file as the remote reward model:

    python -m openrlhf.cli.train_ppo_ray ... --remote_rm_url examples/trainers/openrlhf_reward.py \
        --label_key reference

Each row's label column is the reference source of a torch2cuda task (or JSON with `reference`,
`kind`, `harness`).  To run the engine on the Ray cluster OpenRLHF already uses, replace the name below
with `make_reward_func("unified", evaluator=Evaluator(backend="ray", address="auto"))`.

Run directly, it scores the scale_add example as OpenRLHF would call it."""

from cudaperf.rewards.openrlhf import reward_func

__all__ = ["reward_func"]

if __name__ == "__main__":
    from pathlib import Path

    example = Path(__file__).parents[1] / "eval" / "scale_add"
    prompt = "Write a CUDA kernel for this model.\n"
    answer = "```cuda\n" + (example / "candidate_native.cu").read_text() + "\n```\n"
    print(reward_func([prompt + answer, prompt + "no code"], [prompt, prompt],
                      [(example / "reference.py").read_text()] * 2))
