"""The unified reward: the execution engine's verdict decides, structure refines.

reward = execution part + structural_weight x structural score, where the structural score counts
only when the candidate compiled, launched kernels of its own and was correct (a well-shaped kernel
that never runs, or runs wrong, earns nothing for its shape).  The execution part is

- for failures, a level per status: floor < compile_error < runtime_error (and timeout) < incorrect;
  the floor also for gate rejections, runtime tampering (inputs edited in place, outputs that are
  not real tensors) and results carrying a suspect flag (`suspect_flags`: faster than DRAM allows,
  lower precision than the reference);
- for correct candidates, by `RewardConfig.execution`:
  milestone   1, 2 if faster than eager by the margin, 3 if also faster than torch.compile;
  speedup     correct_bonus + min(speedup, speedup_cap);
  log_speedup correct_bonus + clip(log2 speedup, -log_clip, log_clip).
"""

from __future__ import annotations

import math

from .config import RewardBreakdown, RewardConfig
from .execution.result import ExecResult
from .structural import StructuralScore, launched_name

# Mismatch messages of execution/correctness.py that mean tampering rather than a wrong answer, and the
# rules of incorrect results that only tampering produces.  Constant and unwritten outputs stay at the
# incorrect level: an honest bug (an output never written, a kernel that exits early) looks the same.
TAMPERING = ("in-place edit", "plain torch.Tensor", "materialised strided tensor", "has no storage")
HACK_MISMATCHES = ("input-mutation",)
_LEVELS = {"compile_error": "compile_error", "runtime_error": "runtime_error", "timeout": "runtime_error",
           "incorrect": "incorrect"}


def hack(result: ExecResult, config: RewardConfig) -> str | None:
    """Why this result is a reward hack (it then earns the floor), or None."""
    if result.status == "rejected":
        return f"rejected: {result.rule or result.reason}"
    if result.status == "incorrect" and (result.rule in HACK_MISMATCHES
                                         or any(marker in result.reason for marker in TAMPERING)):
        return f"tampering: {result.rule + ': ' if result.rule else ''}{result.reason}"
    suspect = [f for f in result.flags if f.startswith(config.suspect_flags)]
    if suspect and result.status in ("correct", "incorrect"):
        return f"suspect: {suspect[0]}"
    return None


def correct_part(result: ExecResult, config: RewardConfig) -> float:
    """The execution part of a correct result (speedup None: correctness only)."""
    s = result.speedup
    if config.execution == "milestone":
        if s is None or s <= config.milestone_margin:
            return 1.0
        faster_than_compile = result.speedup_compile is not None and result.speedup_compile > config.milestone_margin
        return 3.0 if faster_than_compile else 2.0
    if s is None or s <= 0:
        return config.correct_bonus
    if config.execution == "speedup":
        return config.correct_bonus + min(s, config.speedup_cap)
    return config.correct_bonus + max(-config.log_clip, min(config.log_clip, math.log2(s)))


def execution_part(result: ExecResult, config: RewardConfig) -> tuple[float | None, str | None]:
    """(execution part, why floored).  None when the engine could not run it (no GPU)."""
    why = hack(result, config)
    if why is not None:
        return config.floor, why
    if result.status in ("no_gpu", "infra_error"):
        return None, None
    if result.correct:
        return correct_part(result, config), None
    return getattr(config, _LEVELS[result.status]), None


def launched_own(result: ExecResult, kernels: list[str]) -> bool:
    """Whether a kernel the candidate defines is among those the engine saw launched."""
    return bool(set(kernels) & {launched_name(seen) for seen in result.kernels_launched or []})


def combine(result: ExecResult, structural: StructuralScore, config: RewardConfig) -> RewardBreakdown:
    """`structural` must be scored over the kernels that ran (structural.score_source(launched=...))."""
    execution, floored = execution_part(result, config)
    kernels = [k.name for k in structural.kernels]
    counted = (floored is None and result.correct and bool(result.compiled) and launched_own(result, kernels)
               and structural.reason is None)
    reward = None if execution is None else execution + (config.structural_weight * structural.score if counted
                                                          else 0.0)
    return RewardBreakdown(reward=reward, status=result.status, execution=execution, structural=structural.score,
                           structural_counted=counted, components=dict(structural.components), kernels=kernels,
                           speedup=result.speedup, floored=floored, reason=result.reason, result=result)
