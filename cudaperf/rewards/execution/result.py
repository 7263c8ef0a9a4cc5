"""The typed outcome of evaluating one candidate: what `cudaperf eval --format json` prints and the
Python API returns.  One dataclass so that rewards, the CLI and the batch JSONL share one shape."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

# infra_error: the engine, not the candidate, failed (a worker that did not start, a reference that did not
# load in time); like no_gpu it earns no execution reward either way
STATUSES = ("rejected", "compile_error", "runtime_error", "timeout", "incorrect", "correct", "no_gpu", "infra_error")
# a job's status, never a result's: the fast path's interpreter could not follow the candidate's wrapper, and
# the engine runs the candidate again on the full build
BEYOND_FAST_PATH = "beyond_fast_path"
SCHEMA = "cudaperf.eval/1"
MAX_REASON = 500     # characters of `reason`, one line: candidate-controlled text is bounded
MAX_LOG_LINE = 300
MAX_LOG_LINES = 120


@dataclass
class ExecResult:
    """`status` is one of STATUSES; `reason` says why in one line (the gate rule, the compiler's first
    error, the CUDA error, the output and trial that mismatched).  `flags` are warnings that do not
    change the status (implausible speedup, degenerate task, nondeterminism within tolerance)."""

    status: str
    reason: str = ""
    rule: str | None = None
    compiled: bool | None = None
    correct: bool = False
    max_abs_error: float | None = None
    max_rel_error: float | None = None
    trials: int = 0
    time_ms: dict[str, float | None] = field(default_factory=lambda: {"candidate": None, "reference": None})
    speedup: float | None = None
    speedup_compile: float | None = None
    kernels_launched: list[str] | None = None
    own_kernel_share: float | None = None   # GPU time in the candidate's own kernels / in all it launched
    flags: list[str] = field(default_factory=list)
    format: str | None = None
    candidate: str | None = None
    seconds: float | None = None
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}; expected one of {', '.join(STATUSES)}")
        self.correct = self.status == "correct"
        first = next((ln for ln in str(self.reason).splitlines() if ln.strip()), "")
        self.reason = first.strip()[:MAX_REASON]
        self.log = [str(ln)[:MAX_LOG_LINE] for ln in self.log][-MAX_LOG_LINES:]

    def to_json(self) -> dict:
        return {"schema": SCHEMA, **asdict(self)}

    @classmethod
    def from_json(cls, data: dict) -> ExecResult:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


def render_text(result: ExecResult) -> str:
    """Human summary: status line, times, flags; the log only when something went wrong."""
    head = f"{result.candidate or 'candidate'}: {result.status}"
    if result.reason:
        head += f" ({result.rule}: {result.reason})" if result.rule else f" ({result.reason})"
    lines = [head]
    t = result.time_ms
    if t.get("candidate") is not None:
        ref = f", reference {t['reference']:.4f} ms" if t.get("reference") is not None else ""
        line = f"  time     candidate {t['candidate']:.4f} ms{ref}"
        if result.speedup is not None:
            line += f", speedup {result.speedup:.2f}x"
        if result.speedup_compile is not None:
            line += f", vs torch.compile {result.speedup_compile:.2f}x"
        lines.append(line)
    if result.max_abs_error is not None:
        lines.append(f"  error    max abs {result.max_abs_error:.3g}, max rel {result.max_rel_error:.3g} "
                     f"over {result.trials} trials")
    if result.kernels_launched:
        lines.append(f"  kernels  {', '.join(result.kernels_launched)}")
    if result.own_kernel_share is not None:
        lines.append(f"  work     own kernels {result.own_kernel_share:.1%} of the GPU time")
    if result.flags:
        lines.append(f"  flags    {', '.join(result.flags)}")
    if result.status not in ("correct", "no_gpu"):
        lines.extend(f"  | {entry}" for entry in result.log[-20:])
    return "\n".join(lines) + "\n"
