"""Linting files: analyse, apply the selected rules, honour suppressions, and say what was not checked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from .. import workers
from ..analysis.analyzer import Options, UnhandledSyntax, analyze_file, find_sources
from ..analysis.report import FileReport, KernelReport
from ..analysis.source import SourceError
from ..progress import Progress
from . import meta, performance, sync  # noqa: F401  (registers the rules)
from .rules import REGISTRY, Finding, Rule, guess
from .selection import default_rules
from .span import Spans
from .suppress import Suppressions


@dataclass(frozen=True)
class Note:
    """Something the run could not check, or a remark of the analysis, for stderr and the JSON."""

    path: str
    line: int
    column: int
    severity: str  # error (the run exits 2) | warning | note
    message: str

    def text(self) -> str:
        if not self.path:  # about the whole run
            return f"cudaperf: {self.severity}: {self.message}"
        return f"{self.path}:{self.line}:{self.column}: {self.severity}: {self.message}"

    def to_json(self) -> dict:
        return {"path": self.path, "line": self.line, "column": self.column, "severity": self.severity,
                "message": self.message}


class Linted(NamedTuple):
    path: str
    findings: list[Finding]
    error: str | None  # the file could not be analysed at all
    notes: list[Note]
    kernels: int  # kernels checked
    defined: list[str]  # kernels the file defines (also those --kernel left out)
    estimated: int = 0  # kernels checked by register-spill whose registers were estimated: spills not checked


def complete(report: FileReport) -> bool:
    """Was every kernel the file defines analysed to the end?"""
    analysed = {k.kernel.name for k in report.kernels}
    return (set(report.defined) <= analysed and not any(k.incomplete for k in report.kernels)
            and not any(d.severity == "error" for d in report.diagnostics))


def unjudged(kernel: KernelReport, rules: list[Rule]) -> dict[Rule, list[tuple[int, int]]]:
    return {r: places for r in rules if r.scope == "kernel" for places in [r.unchecked(kernel)] if places}


def lint_file(report: FileReport, rules: list[Rule], text: str) -> list[Finding]:
    """Findings of `rules` in one analysed file, suppressions applied (file rules included when selected:
    syntax errors from the report's diagnostics, unused and invalid suppressions from the text)."""
    spans = Spans(text)
    comments = Suppressions(text)
    kernel_rules = [r for r in rules if r.scope == "kernel"]
    codes = {r.code for r in rules}
    raw: list[Finding] = []
    for kernel in report.kernels:
        for r in kernel_rules:
            raw.extend(r.findings(report.path, kernel))
    if "CP001" in codes:
        syntax = REGISTRY["CP001"]
        raw += [Finding(report.path, d.line, d.column, syntax.code, syntax.name, "", syntax.severity, d.message,
                        syntax.fix) for d in report.diagnostics if d.kind == "syntax"]
    found = [f for f in raw if not comments.suppressed(f)]
    extra = []
    if "CP002" in codes and complete(report):
        skipped = {(line, r.code) for k in report.kernels for r, places in unjudged(k, kernel_rules).items()
                   for line, _ in places}
        default = {r.code for r in default_rules() if r.code not in ("CP002", "CP003")}
        extra += [(REGISTRY["CP002"], *problem) for problem in comments.unused(codes, skipped, default <= codes)]
    if "CP003" in codes:
        extra += [(REGISTRY["CP003"], *problem) for problem in comments.problems]
    for r, line, column, message in extra:
        finding = Finding(report.path, line, column, r.code, r.name, "", r.severity, message, r.fix)
        if not comments.suppressed(finding, blanket=False):
            found.append(finding)
    ended = []
    for f in found:
        end_line, end_column = spans.end(f.line, f.column)
        ended.append(replace(f, end_line=end_line, end_column=end_column))
    return sorted(ended, key=lambda f: (f.line, f.column, f.code))


def _coverage(report: FileReport, rules: list[Rule], named: bool) -> list[Note]:
    """What the rules could not judge, and what the analysis said, as notes."""
    path = report.path
    notes = [Note(path, d.line, d.column, d.severity, d.message) for d in report.diagnostics if d.kind != "syntax"]
    if named and not report.defined:
        notes.append(Note(path, 1, 1, "warning", "no kernels in this file: nothing checked"))
    for kernel in report.kernels:
        skipped = unjudged(kernel, rules)
        if not skipped:
            continue
        places = {p for ps in skipped.values() for p in ps}
        names = ", ".join(r.name for r in skipped)
        parts = [p for p in ("block",) if p in kernel.launch.guessed]
        notes.append(Note(path, kernel.kernel.line, kernel.kernel.column, "note",
                          f"kernel {kernel.kernel.name}: {len(places)} access{'es' if len(places) != 1 else ''} "
                          f"reading threadIdx.y/z not checked by {names}: which threads share a warp depends on "
                          f"the block's shape (the verdict differs between the shapes tried), and "
                          f"{guess(kernel, parts or ['block'])}"))
    return notes


def lint_one(path: str, options: Options, codes: list[str], named: bool = False) -> Linted:
    """Analyse and lint one file (`named`: given by name, so a file without kernels is worth a
    warning).  Module-level so that worker processes can run it."""
    try:
        report = analyze_file(path, options)
    except SourceError as exc:
        return Linted(path, [], str(exc), [], 0, [])
    except UnhandledSyntax as exc:  # strict mode
        return Linted(path, [], f"{path}: {exc}", [], 0, [])
    rules = [REGISTRY[c] for c in codes]
    findings = lint_file(report, rules, Path(path).read_text(errors="replace"))
    estimated = sum(k.resources is None or k.resources.source != "ptxas" for k in report.kernels) \
        if "CP202" in codes else 0
    return Linted(path, findings, None, _coverage(report, rules, named), len(report.kernels), list(report.defined),
                  estimated)


def spills_unchecked(results: list[Linted]) -> Note | None:
    """register-spill needs ptxas's count; under the estimate (lint's default) it cannot fire, and
    the run says so instead of passing in silence."""
    estimated = sum(r.estimated for r in results)
    if not estimated:
        return None
    kernels = sum(r.kernels for r in results)
    which = "any kernel" if estimated == kernels else f"{estimated} of {kernels} kernels"
    return Note("", 0, 0, "note", f"register-spill did not check {which}: their registers were estimated, not "
                f"counted by ptxas (lint's default is --resources estimate; --resources auto or ptxas compiles "
                f"with nvcc where it is found)")


@dataclass(frozen=True)
class Job:
    """One file to lint, with the options and rules its settings give it."""

    path: str
    options: Options
    codes: tuple[str, ...]
    named: bool = False


def _run(job: Job) -> Linted:
    return lint_one(job.path, job.options, list(job.codes), job.named)


def lint_jobs(jobs: list[Job], processes: int = 1, progress: Progress | None = None,
              emit: Callable[[Linted], None] | None = None) -> list[Linted]:
    """Lint `jobs`, `processes` files at a time in worker processes.  `emit` sees each file's result
    as soon as it and every file before it are done, so output streams in file order."""
    progress = progress or Progress(len(jobs), "lint")
    results: list[Linted] = []

    def done(result: Linted) -> None:
        results.append(result)
        progress.advance(result.path)
        if emit is not None:
            emit(result)

    try:
        if processes > 1 and len(jobs) > 2:
            with workers.pool(min(processes, len(jobs))) as pool:
                for result in pool.map(_run, jobs):
                    done(result)
        else:
            for job in jobs:
                done(_run(job))
    finally:
        progress.close()
    return results


def with_analyses(options: Options, rules: list[Rule]) -> Options:
    """Only the analyses the rules read."""
    return replace(options, analyses=frozenset(need for r in rules for need in r.needs))


def lint_paths(paths: list[str], options: Options, rules: list[Rule], jobs: int = 1,
               progress: Progress | None = None,
               emit: Callable[[Linted], None] | None = None) -> tuple[list[str], list[Finding], list[str]]:
    """Lint files and directory trees with one set of options and rules: (files linted, findings in
    file order, errors)."""
    options = with_analyses(options, rules)
    codes = tuple(r.code for r in rules)
    results = lint_jobs([Job(str(p), options, codes) for p in find_sources(paths)], jobs, progress, emit)
    return ([r.path for r in results if r.error is None], [f for r in results for f in r.findings],
            [r.error for r in results if r.error])
