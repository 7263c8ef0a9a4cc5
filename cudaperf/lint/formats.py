"""Text renderings of findings: ruff-style lines, GitHub Actions annotations, per-rule counts."""

from __future__ import annotations

from collections import Counter

from .rules import Finding

_GITHUB_LEVEL = {"error": "error", "warning": "warning", "note": "notice"}


def text(findings: list[Finding]) -> str:
    return "".join(f"{f.path}:{f.line}:{f.column}: {f.code} [{f.name}] {f.message}\n    fix: {f.fix}\n"
                   for f in findings)


def summary(findings: list[Finding]) -> str:
    """The closing line after the text findings (nothing when clean)."""
    return f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''}.\n" if findings else ""


def _escape(value: str, property_value: bool = False) -> str:
    """Workflow-command escaping (actions/toolkit `escapeData` / `escapeProperty`)."""
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value.replace(":", "%3A").replace(",", "%2C") if property_value else value


def github(findings: list[Finding]) -> str:
    """`::warning file=...,line=...::message` lines, which GitHub Actions shows on the pull request's diff."""
    out = []
    for f in findings:
        props = {"file": f.path, "line": f.line, "col": f.column, "endLine": f.end_line, "endColumn": f.end_column,
                 "title": f"{f.code} {f.name}"}
        joined = ",".join(f"{k}={_escape(str(v), True)}" for k, v in props.items())
        out.append(f"::{_GITHUB_LEVEL[f.severity]} {joined}::{_escape(f.message)}\n")
    return "".join(out)


def statistics(findings: list[Finding]) -> list[dict]:
    """Findings per rule, most frequent first (as `ruff --statistics`)."""
    counts = Counter((f.code, f.name) for f in findings)
    return [{"code": code, "name": name, "count": n}
            for (code, name), n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def statistics_text(rows: list[dict]) -> str:
    return "".join(f"{r['count']:>5}  {r['code']}  {r['name']}\n" for r in rows)
