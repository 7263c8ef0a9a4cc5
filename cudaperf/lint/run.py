"""Linting files: analyse, apply the selected rules, honour suppressions."""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from ..analysis.analyzer import Options, UnhandledSyntax, analyze_file, find_sources
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


Result = tuple[str, list[Finding], str | None, list[str]]


def lint_one(path: str, options: Options, codes: list[str]) -> Result:
    """Analyse and lint one file: (path, findings, error message or None, notes such as a kernel
    that ran past the analysis budget).  Module-level so that worker processes can run it."""
    try:
        report = analyze_file(path, options)
    except SourceError as exc:
        return path, [], str(exc), []
    except UnhandledSyntax as exc:  # strict mode
        return path, [], f"{path}: {exc}", []
    notes = [f"{path}:{d.line}:{d.column}: note: {d.message}" for d in report.diagnostics if d.severity == "note"]
    return path, lint_file(report, [REGISTRY[c] for c in codes], Path(path).read_text(errors="replace")), None, notes


def lint_paths(paths: list[str], options: Options, rules: list[Rule], jobs: int = 1,
               progress: Progress | None = None,
               emit: Callable[[Result], None] | None = None) -> tuple[list[str], list[Finding], list[str]]:
    """Lint files and directory trees, `jobs` files at a time in worker processes: (files
    linted, findings in file order, errors).  `emit` sees each file's result as soon as it and
    every file before it are done, so output streams in file order."""
    files = [str(p) for p in find_sources(paths)]
    codes = [r.code for r in rules]
    options = replace(options, analyses=frozenset(need for r in rules for need in r.needs))
    progress = progress or Progress(len(files), "lint")
    results: list[Result] = []

    def done(result: Result) -> None:
        results.append(result)
        progress.advance(result[0])
        if emit is not None:
            emit(result)

    if jobs > 1 and len(files) > 2:
        with ProcessPoolExecutor(max_workers=min(jobs, len(files))) as pool:
            for result in pool.map(lint_one, files, [options] * len(files), [codes] * len(files)):
                done(result)
    else:
        for f in files:
            done(lint_one(f, options, codes))
    progress.close()
    linted = [path for path, _, error, _ in results if error is None]
    return linted, [f for _, found, _, _ in results for f in found], [e for _, _, e, _ in results if e]
