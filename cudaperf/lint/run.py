"""Linting files: analyse, apply the selected rules, honour suppressions."""

from __future__ import annotations

import re
from pathlib import Path

from ..analysis.analyzer import Options, analyze_file, find_sources
from ..analysis.report import FileReport
from ..analysis.source import SourceError
from . import performance, sync  # noqa: F401  (registers the rules)
from .rules import Finding, Rule

_SUPPRESS = re.compile(r"cudaperf:\s*ignore(-file)?(?:\[([^\]]*)\])?")


def suppressions(text: str) -> tuple[dict[int, set[str] | None], set[str] | None]:
    """Per line: the codes/names ignored there (None: everything); and file-wide ignores."""
    lines: dict[int, set[str] | None] = {}
    whole: set[str] | None = set()
    for number, line in enumerate(text.splitlines(), start=1):
        for m in _SUPPRESS.finditer(line):
            tokens = {t.strip() for t in m.group(2).split(",")} if m.group(2) else None
            if m.group(1):
                whole = None if tokens is None or whole is None else whole | tokens
            else:
                lines[number] = None if tokens is None or lines.get(number, set()) is None else \
                    (lines.get(number) or set()) | tokens
    return lines, whole


def _ignored(finding: Finding, scope: set[str] | None) -> bool:
    return scope is None or finding.code in scope or finding.name in scope


def lint_file(report: FileReport, rules: list[Rule], text: str) -> list[Finding]:
    lines, whole = suppressions(text)
    found = []
    for kernel in report.kernels:
        for r in rules:
            for finding in r.findings(report.path, kernel):
                if whole is None or _ignored(finding, whole):
                    continue
                if finding.line in lines and _ignored(finding, lines[finding.line]):
                    continue
                found.append(finding)
    return sorted(found, key=lambda f: (f.line, f.column, f.code))


def lint_paths(paths: list[str], options: Options, rules: list[Rule]) -> tuple[list[FileReport], list[Finding],
                                                                               list[str]]:
    reports, findings, errors = [], [], []
    for path in find_sources(paths):
        try:
            report = analyze_file(path, options)
        except SourceError as exc:
            errors.append(str(exc))
            continue
        reports.append(report)
        findings += lint_file(report, rules, Path(path).read_text(errors="replace"))
    return reports, findings, errors
