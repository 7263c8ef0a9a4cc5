"""Linting files: analyse, apply the selected rules, honour suppressions."""

from __future__ import annotations

import re
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from ..analysis.analyzer import Options, analyze_file, find_sources
from ..analysis.report import FileReport
from ..analysis.source import SourceError
from ..progress import Progress
from . import performance, sync  # noqa: F401  (registers the rules)
from .rules import REGISTRY, Finding, Rule
from .span import Spans

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
    spans = Spans(text)
    found = []
    for kernel in report.kernels:
        for r in rules:
            for finding in r.findings(report.path, kernel):
                if whole is None or _ignored(finding, whole):
                    continue
                if finding.line in lines and _ignored(finding, lines[finding.line]):
                    continue
                end_line, end_column = spans.end(finding.line, finding.column)
                found.append(replace(finding, end_line=end_line, end_column=end_column))
    return sorted(found, key=lambda f: (f.line, f.column, f.code))


def lint_one(path: str, options: Options, codes: list[str]) -> tuple[str, list[Finding], str | None]:
    """Analyse and lint one file: (path, findings, error message or None).  Module-level so that
    worker processes can run it."""
    try:
        report = analyze_file(path, options)
    except SourceError as exc:
        return path, [], str(exc)
    return path, lint_file(report, [REGISTRY[c] for c in codes], Path(path).read_text(errors="replace")), None


def lint_paths(paths: list[str], options: Options, rules: list[Rule], jobs: int = 1,
               progress: Progress | None = None) -> tuple[list[str], list[Finding], list[str]]:
    """Lint files and directory trees, `jobs` files at a time in worker processes: (files
    linted, findings in file order, errors)."""
    files = [str(p) for p in find_sources(paths)]
    codes = [r.code for r in rules]
    progress = progress or Progress(len(files), "lint")
    if jobs > 1 and len(files) > 2:
        with ProcessPoolExecutor(max_workers=min(jobs, len(files))) as pool:
            futures = [pool.submit(lint_one, f, options, codes) for f in files]
            results = []
            for future in futures:
                results.append(future.result())
                progress.advance(results[-1][0])
    else:
        results = []
        for f in files:
            results.append(lint_one(f, options, codes))
            progress.advance(f)
    progress.close()
    linted = [path for path, _, error in results if error is None]
    return linted, [f for _, found, _ in results for f in found], [e for _, _, e in results if e]
