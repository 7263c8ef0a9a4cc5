"""What the model reads after an attempt: the verdict (compiler errors, the first mismatching output,
the runtime error), the measured times, the linter's findings and a static profile of each kernel.
Short on purpose: every line costs context on the next turn."""

from __future__ import annotations

from ..analysis.report import FileReport, KernelReport
from ..lint.rules import Finding, select
from ..lint.run import lint_file
from ..rewards.config import RewardBreakdown, RewardConfig
from ..rewards.extract import Code
from ..rewards.structural import Unreadable, kernel_reports

MAX_FINDINGS = 8
MAX_LOG_LINES = 12
_SEVERITY = {"error": 0, "warning": 1, "note": 2}


def _verdict(b: RewardBreakdown) -> list[str]:
    r = b.result
    if b.status == "no_code":
        return ["No code found. Answer with the complete code in one fenced block."]
    if b.floored and b.status != "static":
        return [f"Rejected as a reward hack ({b.floored}). Write kernels that do the work themselves."]
    if b.status == "static":
        return []
    if b.status == "compile_error":
        errors = [ln for ln in r.log if "error" in ln.lower()][:MAX_LOG_LINES] if r else []
        return ["Compilation failed:", *(errors or [b.reason])]
    if b.status in ("runtime_error", "timeout"):
        return [f"It compiled but failed at run time ({b.status}): {b.reason}"]
    if b.status == "incorrect":
        return [f"It ran but the result is wrong. First mismatch: {b.reason}"]
    if b.status == "no_gpu":
        return ["It compiled; it was not run (no GPU here)."]
    if b.status == "infra_error":
        return [f"It was not run: the evaluation engine failed ({b.reason})."]
    t = r.time_ms if r else {}
    line = "Correct."
    if t.get("candidate") is not None and t.get("reference") is not None:
        line += f" Time {t['candidate']:.4f} ms against the reference's {t['reference']:.4f} ms"
        line += f" (speedup {b.speedup:.2f}x)." if b.speedup is not None else "."
    return [line]


def _kernel_line(k: KernelReport) -> str:
    f = k.to_json()["features"]
    parts = [f"global load {f['global_load_sectors_per_request']:.1f} and store "
             f"{f['global_store_sectors_per_request']:.1f} sectors/request "
             f"(efficiency {f['global_load_efficiency']:.0%} / {f['global_store_efficiency']:.0%})"]
    if f["shared_requests_per_thread"] > 0:
        parts.append(f"shared {f['shared_load_wavefronts_per_request']:.1f} / "
                     f"{f['shared_store_wavefronts_per_request']:.1f} wavefronts/request")
    parts.append(f"occupancy {f['occupancy_theoretical']:.0%} with {k.launch.threads_per_block} threads/block")
    if f["races"] or f["divergent_synchronisation"]:
        parts.append(f"{f['races']:.0f} race(s), {f['divergent_synchronisation']:.0f} divergent barrier(s)")
    return f"- kernel {k.kernel.name}: " + "; ".join(parts)


def static_notes(code: Code, config: RewardConfig) -> list[str]:
    """Lint findings (worst first) and one profile line per kernel, under the launches the reward
    analysed (the spec's literal grids and blocks)."""
    try:
        reports = kernel_reports(code.source, code.language, code.spec, config)
    except Unreadable as exc:
        return [f"The code could not be read: {exc}"]
    findings: list[Finding] = []
    for kernel, text in reports:
        findings += lint_file(FileReport("candidate", [], [kernel]), select(), text)
    findings.sort(key=lambda f: (_SEVERITY.get(f.severity, 3), f.line))
    lines = [f"- line {f.line}: {f.code} [{f.name}] {f.message}" for f in findings[:MAX_FINDINGS]]
    return ([f"Linter findings ({len(findings)}):", *lines] if findings else []) + \
        (["Static profile:", *(_kernel_line(k) for k, _ in reports)] if reports else [])


def feedback(breakdown: RewardBreakdown, code: Code | None, config: RewardConfig) -> str:
    lines = _verdict(breakdown)
    if code is not None and breakdown.status not in ("compile_error", "rejected"):
        lines += static_notes(code, config)
    if breakdown.reward is not None:
        lines.append(f"Reward {breakdown.reward:.3f}.")
    return "\n".join(lines)
