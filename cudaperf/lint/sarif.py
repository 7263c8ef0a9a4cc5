"""SARIF 2.1.0 output, the format code-scanning services (GitHub, Azure DevOps) read."""

from __future__ import annotations

from pathlib import Path

from .. import __version__
from .rules import Finding, Rule

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"error": "error", "warning": "warning", "note": "note"}


def sarif(findings: list[Finding], rules: list[Rule]) -> dict:
    ordered = sorted(rules, key=lambda r: r.code)
    index = {r.code: i for i, r in enumerate(ordered)}
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "cudaperf", "version": __version__, "informationUri": "https://cudaperf.dev",
                "rules": [{
                    "id": r.code, "name": r.name,
                    "shortDescription": {"text": r.summary},
                    "fullDescription": {"text": r.why},
                    "help": {"text": f"{r.fix}\n\nExample: {r.example}"},
                    "defaultConfiguration": {"level": LEVEL[r.severity]},
                } for r in ordered],
            }},
            "results": [{
                "ruleId": f.code, "ruleIndex": index[f.code], "level": LEVEL[f.severity],
                "message": {"text": f"{f.message} (kernel {f.kernel})"},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": Path(f.path).as_posix()},
                    "region": {"startLine": f.line, "startColumn": f.column},
                }}],
            } for f in findings],
        }],
    }
