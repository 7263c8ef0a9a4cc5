"""Barriers, collectives and uniformity as real code writes them (tests/kernels/sync_forms.cu):
every buggy kernel is named by its rule at a marked line, no clean twin by any sync rule.  Written
while tuning the analysis, so these pairs are regression checks, not a held-out measurement."""

from __future__ import annotations

import re

from conftest import ROOT

from cudaperf.analysis.analyzer import Options, analyze_file
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

PATH = ROOT / "tests" / "kernels" / "sync_forms.cu"


def _expectations(text: str) -> tuple[dict[str, str], set[int]]:
    """kernel -> expected rule (or `clean`); the lines marked `// here`."""
    expected = dict((kernel, rule) for rule, kernel in re.findall(
        r"// expect: ([\w-]+)\n(?:template[^\n]*\n)?__global__ void (\w+)", text))
    marked = {n for n, line in enumerate(text.splitlines(), start=1) if line.rstrip().endswith("// here")}
    return expected, marked


def test_sync_forms_of_real_code():
    text = PATH.read_text()
    expected, marked = _expectations(text)
    assert len(expected) >= 31 and marked
    report = analyze_file(PATH, Options(grid=(64, 1, 1), block=(256, 1, 1), resources="estimate"))
    found: dict[str, set[tuple[str, int]]] = {}
    for f in lint_file(report, select(["CP4"]), text):
        found.setdefault(f.kernel, set()).add((f.name, f.line))
    missed = [k for k, rule in expected.items() if rule != "clean" and
              not any(name == rule and line in marked for name, line in found.get(k, ()))]
    false_alarms = {k: found[k] for k, rule in expected.items() if rule == "clean" and found.get(k)}
    assert missed == [] and false_alarms == {}
