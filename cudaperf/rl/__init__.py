"""Reinforcement-learning side of cudaperf: the measured dataset (`rl.dataset`), the offline
pairwise ranker (`rl.ranking`), GRPO training (`rl.train`) and iterative refinement (`rl.refine`).
Nothing is imported here, so `import cudaperf.rl` stays free of torch, TRL, transformers,
scipy and datasets."""
