"""`cudaperf analyze` over many files: each file analysed, and rendered, in a worker process
(`-j N`), the results kept in file order.  A report holds the kernel's IR and access graph, so a
worker sends back what the output needs (the JSON of the file, or its text), never the report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import workers
from .analysis.analyzer import Options, UnhandledSyntax, analyze_file, find_sources
from .analysis.report import FileReport
from .analysis.source import Diagnostic, SourceError
from .textout import render_analysis

CHUNK = 8  # files per task: neighbours of one program tend to land in one worker, which scans its host code once


@dataclass
class Analysed:
    """One file's output (its JSON, or its text), whether it reported kernels, the kernels it
    defines and the error that stopped it."""

    rendered: dict | str
    reported: bool
    defined: list[str]
    error: str | None


def analyze_one(path: str, options: Options) -> tuple[FileReport, str | None]:
    """A file's report, and the one-line error when it could not be read (then the report says why)."""
    try:
        return analyze_file(path, options), None
    except SourceError as exc:
        return FileReport(str(path), [Diagnostic(1, 1, "error", str(exc).split(": ", 1)[-1])], []), str(exc)
    except UnhandledSyntax as exc:
        return FileReport(str(path), [Diagnostic(1, 1, "error", str(exc))], []), f"{path}: {exc}"
    except RecursionError:
        message = "nesting too deep to analyse"
        return FileReport(str(path), [Diagnostic(1, 1, "error", message)], []), f"{path}: {message}"


def _rendered(path: str, options: Options, text: bool) -> Analysed:
    report, error = analyze_one(path, options)
    return Analysed(render_analysis([report]) if text else report.to_json(), bool(report.kernels),
                    list(report.defined), error)


def analyze_rendered(paths: Sequence[str], options: Options, text: bool, jobs: int) -> list[Analysed]:
    """Every file found under `paths`, analysed `jobs` at a time (LaunchError propagates)."""
    files = [str(p) for p in find_sources(paths)]
    if jobs <= 1 or len(files) <= 2:
        return [_rendered(f, options, text) for f in files]
    with workers.pool(min(jobs, len(files))) as pool:
        return list(pool.map(_rendered, files, [options] * len(files), [text] * len(files), chunksize=CHUNK))
