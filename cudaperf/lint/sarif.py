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


def sarif(findings: list[Finding], rules: list[Rule], root: Path | None = None) -> dict:
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
            "results": [{
                "ruleId": f.code, "ruleIndex": index[f.code], "level": LEVEL[f.severity],
                "message": {"text": f"{f.message} (kernel {f.kernel})"},
                "locations": [{"physicalLocation": {
                    "artifactLocation": artifact(f.path, root),
                    "region": {"startLine": f.line, "startColumn": f.column,
                               "endLine": f.end_line, "endColumn": f.end_column},
                }}],
            } for f in findings],
        }],
    }
