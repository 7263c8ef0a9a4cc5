"""Reward shaping in one place: `RewardConfig` (every number a reward uses, with named presets) and
`RewardBreakdown` (one candidate's reward with every component that made it), so a training run
can be reproduced from its config and any reward explained from its breakdown."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .execution.result import ExecResult

EXECUTION_SCHEMES = ("milestone", "speedup", "log_speedup")
STRUCTURAL_COMPONENTS = ("coalescing", "shared", "occupancy", "roofline")


def _frozen(**values: float) -> MappingProxyType:
    return MappingProxyType(dict(values))


@dataclass(frozen=True)
class RewardConfig:
    """Formulas: docs/rewards.md.  Failure levels are ordered floor < compile_error < runtime_error <
    incorrect < 0 <= any correct candidate, so a policy is always paid for getting one step further."""

    # execution part, for correct candidates
    execution: str = "log_speedup"       # milestone | speedup | log_speedup
    correct_bonus: float = 1.0           # what correctness alone earns (speedup, log_speedup)
    speedup_cap: float = 3.0             # speedup: min(speedup, cap)
    log_clip: float = 1.0                # log_speedup: log2(speedup) clipped to [-clip, clip]
    milestone_margin: float = 1.05       # milestone: "faster" means speedup above this
    # execution part, for everything else
    floor: float = -1.0                  # no code, gate rejections and runtime tampering (reward hacks)
    compile_error: float = -0.75
    runtime_error: float = -0.5          # also timeouts
    incorrect: float = -0.25
    suspect_flags: tuple[str, ...] = ("below-memory-roofline", "gate:precision-downgrade")  # engine flags: floor
    # structural part
    structural_weight: float = 0.5       # unified: added as weight x structural score once it counts
    structural_floor: float = 0.0        # structural score of unreadable code or code without kernels
    structural_at_shapes: bool = False   # unified, KernelBench: score the kernels launched at the task's shapes
    rank_weight: float = 0.0             # unified: + weight x the static ranker's place in the group (1 fastest,
    #                                      0 slowest) for correct KernelBench candidates (rewards/triage.py)
    speed_weight: float = 50.0           # at the task's shapes: the estimated speed-up over the reference against 1
    #                                      for the kernel components together (structural.score_at_shapes)
    weights: MappingProxyType = field(default_factory=lambda: _frozen(
        coalescing=0.4, shared=0.3, occupancy=0.2, roofline=0.1))
    penalties: MappingProxyType = field(default_factory=lambda: _frozen(
        races=1.0, divergent_synchronisation=1.0, redundant_barriers=0.1))
    occupancy_target: float = 0.5        # occupancy beyond this rarely hides more latency
    arch: str = "sm_90"
    resources: str = "estimate"          # registers without running ptxas: milliseconds, not 0.2 s

    def __post_init__(self) -> None:
        if self.execution not in EXECUTION_SCHEMES:
            raise ValueError(f"execution must be one of {', '.join(EXECUTION_SCHEMES)}, got {self.execution!r}")
        unknown = set(self.weights) - set(STRUCTURAL_COMPONENTS)
        if unknown:
            raise ValueError(f"unknown structural components {sorted(unknown)}; known: {STRUCTURAL_COMPONENTS}")
        if not self.floor < self.compile_error < self.runtime_error < self.incorrect < 0:
            raise ValueError("failure levels must satisfy floor < compile_error < runtime_error < incorrect < 0")
        object.__setattr__(self, "weights", MappingProxyType(dict(self.weights)))
        object.__setattr__(self, "penalties", MappingProxyType(dict(self.penalties)))

    def to_json(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data.update(weights=dict(self.weights), penalties=dict(self.penalties), suspect_flags=list(self.suspect_flags))
        return data


PRESETS: dict[str, RewardConfig] = {
    # clipped log-speedup: a 2x speedup earns as much as a 2x slowdown costs
    "default": RewardConfig(),
    # CUDA Agent's milestones {-1, 1, 2, 3}; structure (weight < 1) only breaks ties within a milestone
    "milestone": RewardConfig(execution="milestone"),
    # 0.3 x correct + speedup x correct, speedup capped at 3
    "speedup": RewardConfig(execution="speedup", correct_bonus=0.3),
    # execution only: the structural score is reported but never added
    "execution_only": RewardConfig(structural_weight=0.0),
}


def preset(name: str, **overrides: Any) -> RewardConfig:
    if name not in PRESETS:
        raise ValueError(f"unknown reward preset {name!r}; known: {', '.join(PRESETS)}")
    return replace(PRESETS[name], **overrides)


@dataclass
class RewardBreakdown:
    """`reward` is what a trainer receives (None: not measurable here, e.g. no GPU).  `status` is the
    engine's status, `static` for a structural-only score, or `no_code`.  `floored` says why the
    reward is the floor when it is."""

    reward: float | None
    status: str
    execution: float | None = None
    structural: float = 0.0
    structural_counted: bool = False
    components: dict[str, float | None] = field(default_factory=dict)
    kernels: list[str] = field(default_factory=list)
    speedup: float | None = None
    floored: str | None = None
    reason: str = ""
    result: ExecResult | None = None

    def to_json(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["result"] = self.result.to_json() if self.result is not None else None
        return data
