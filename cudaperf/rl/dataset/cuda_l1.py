"""CUDA-L1's released KernelBench solutions (deepreinforce-ai/CUDA-L1: one model-written `ModelNew` per task
and GPU, 441 distinct over 247 tasks, levels 1-3) timed on the H200 by the engine, as ranking data.

The code is never committed (`benchmarks/cuda_l1.py` materialises it outside the repository); what is
committed is the H200's results (tests/data/h200/cuda_l1/*.jsonl: task, solution, SHA-1 of its code and the
`cudaperf.eval/1` result) and the CPU's estimates of each solution (`features`: numbers and kernel names,
no code).

The tasks are split in two before any timing was looked at: `tuning` (the time model's terms and rates,
the ranker's weights and its calibration may be fitted on them) and `held_out` (scored once, after
everything was fixed).  The split is by the SHA-1 of the task's name, fixed: the first hex digit below 8
is tuning."""

from __future__ import annotations

import hashlib


def split(task: str) -> str:
    """'tuning' or 'held_out' for a CUDA-L1 task name (`L1_023`), by the SHA-1 of `cuda_l1/<task>`."""
    return "tuning" if int(hashlib.sha1(f"cuda_l1/{task}".encode()).hexdigest()[0], 16) < 8 else "held_out"
