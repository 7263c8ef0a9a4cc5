"""`cudaperf analyze` over many files: each file analysed, and rendered, in a worker process
(`-j N`), the results kept in file order.  A report holds the kernel's IR and access graph, so a
worker sends back what the output needs (the file's JSON text, or its text), never the report:
encoding JSON is a few percent of the whole run, and done in the workers it runs in parallel."""

from __future__ import annotations

import json
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
    """One file's output (its JSON text as an element of `json_document`'s list, or its text),
    whether it reported kernels, the kernels it defines and the error that stopped it."""

    rendered: str
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
    return Analysed(render_analysis([report]) if text else _element(report.to_json()), bool(report.kernels),
                    list(report.defined), error)


_ELEMENT_INDENT = "\n" + " " * 4  # a file's object sits two levels down: {"files": [{...}]}


def _element(doc: dict) -> str:
    """`doc` as `json.dumps(..., indent=2)` writes it as an element of the document's file list
    (JSON strings hold no raw newline, so indenting every line is exact)."""
    return json.dumps(doc, indent=2).replace("\n", _ELEMENT_INDENT)


def json_document(head: dict, files: Sequence[Analysed]) -> str:
    """`json.dumps({**head, "files": [each file's JSON]}, indent=2)`, joined from the workers'
    text (`head` and `files` not empty: the CLI writes no document for no files)."""
    return json.dumps(head, indent=2)[:-len("\n}")] + ',\n  "files": [' + _ELEMENT_INDENT + \
        ("," + _ELEMENT_INDENT).join(f.rendered for f in files) + "\n  ]\n}"


def analyze_rendered(paths: Sequence[str], options: Options, text: bool, jobs: int) -> list[Analysed]:
    """Every file found under `paths`, analysed `jobs` at a time (LaunchError propagates)."""
    files = [str(p) for p in find_sources(paths)]
    if jobs <= 1 or len(files) <= 2:
        return [_rendered(f, options, text) for f in files]
    with workers.pool(min(jobs, len(files))) as pool:
        return list(pool.map(_rendered, files, [options] * len(files), [text] * len(files), chunksize=CHUNK))
