"""SARIF 2.1.0 output, the format code-scanning services (GitHub, Azure DevOps) read.

Paths are relative to `%SRCROOT%` (the directory lint ran in, given in `originalUriBaseIds`), so an
upload from a CI checkout matches the repository's files; a path outside it stays an absolute
`file://` URI.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from .. import __repository__, __version__
from .rules import Finding, Rule, rule_url

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SOURCE_ROOT = "%SRCROOT%"
LEVEL = {"error": "error", "warning": "warning", "note": "note"}


def artifact(path: str, root: Path) -> dict:
    absolute = Path(path).resolve()
    try:
        return {"uri": quote(absolute.relative_to(root).as_posix()), "uriBaseId": SOURCE_ROOT}
    except ValueError:
        return {"uri": absolute.as_uri()}


def _location(path: str, line: int, column: int, root: Path, end: tuple[int, int] | None = None) -> dict:
    region = {"startLine": line, "startColumn": column}
    if end is not None:
        region.update(endLine=end[0], endColumn=end[1])
    return {"physicalLocation": {"artifactLocation": artifact(path, root), "region": region}}


def sarif(findings: list[Finding], rules: list[Rule], root: Path | None = None, notes=()) -> dict:
    """`notes` (lint.run.Note): what was not checked, as the invocation's tool notifications."""
    root = (root or Path.cwd()).resolve()
    ordered = sorted(rules, key=lambda r: r.code)
    index = {r.code: i for i, r in enumerate(ordered)}
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "cudaperf", "version": __version__, "informationUri": __repository__,
                "rules": [{
                    "id": r.code, "name": r.name,
                    "shortDescription": {"text": r.summary},
                    "fullDescription": {"text": r.why},
                    "help": {"text": f"{r.fix}\n\nExample: {r.example}"},
                    "helpUri": rule_url(r.name),
                    "defaultConfiguration": {"level": LEVEL[r.severity]},
                } for r in ordered],
            }},
            "originalUriBaseIds": {SOURCE_ROOT: {"uri": root.as_uri() + "/"}},
            "invocations": [{
                "executionSuccessful": not any(n.severity == "error" for n in notes),
                "toolExecutionNotifications": [{
                    "level": LEVEL[n.severity], "message": {"text": n.message},
                    **({"locations": [_location(n.path, n.line, n.column, root)]} if n.path else {}),
                } for n in notes],
            }],
            "results": [{
                "ruleId": f.code, "ruleIndex": index[f.code], "level": LEVEL[f.severity],
                "message": {"text": f"{f.message} (kernel {f.kernel})" if f.kernel else f.message},
                "locations": [_location(f.path, f.line, f.column, root, (f.end_line, f.end_column))],
            } for f in findings],
        }],
    }
