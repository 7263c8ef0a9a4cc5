"""Kernel-definition recall over tests/recall_fixtures: 47 files, 457 definitions written in the styles of
public CUDA collections (X-macro and token-pasting kernels, qualifier macros from headers, templates and
`__launch_bounds__` in namespaces, `extern "C"`, split signatures, CRLF and BOM files, deliberately broken
files).  The files and their truth are a curated part of the stand-in corpus that issue 31 retired; recall
on real collections (HeCBench, cuda-samples) is measured by benchmarks/bench_analyze.py --fetch."""

from __future__ import annotations

import json
import os

import pytest
from conftest import ROOT, says

from cudaperf.analysis.analyzer import INTERNAL_ERROR, Options, analyze_file, find_sources
from cudaperf.analysis.report import document

FIXTURES = ROOT / "tests" / "recall_fixtures"
SLACK = 2  # lines between a reported kernel and its truth entry
# The one definition not found: a signature split by `#ifdef` whose first variant is named on line 37.
KNOWN_MISSED = {"user_projects/physics/split_signature.cu:37 step_v1"}
EXTRA = 9  # reported kernels that are not definitions (today's count; more fails the test)


def score(doc: dict, truth: dict, src: str) -> tuple[int, list[str], int]:
    """Matched truth entries, the missed ones and the reports that match none.  A report matches a truth
    entry of its file and name whose [line, name_line] span, or X-macro `alt_line`, is within SLACK lines;
    each entry is matched at most once."""
    reported: dict[str, list[dict]] = {}
    for f in doc["files"]:
        reported.setdefault(os.path.relpath(os.path.abspath(f["path"]), src), []).extend(f["kernels"])
    matched, missed, extra = 0, [], 0
    for path, info in sorted(truth["files"].items()):
        kernels = reported.get(path, [])
        used = [False] * len(kernels)
        for t in info["kernels"]:
            lo, hi, alt = t["line"] - SLACK, max(t["line"], t["name_line"]) + SLACK, t.get("alt_line")
            hit = next((j for j, k in enumerate(kernels) if not used[j] and k["name"] == t["name"]
                        and (lo <= k["line"] <= hi or (alt is not None and abs(k["line"] - alt) <= SLACK))), None)
            if hit is None:
                missed.append(f"{path}:{t['line']} {t['name']}")
            else:
                used[hit], matched = True, matched + 1
        extra += used.count(False)
    extra += sum(len(ks) for path, ks in reported.items() if path not in truth["files"])
    return matched, missed, extra


@pytest.mark.slow
def test_recall_of_kernel_definitions_and_no_internal_errors():
    reports = [analyze_file(path, Options(resources="estimate")) for path in find_sources([FIXTURES / "src"])]
    internal = [(r.path, d.message) for r in reports for d in r.diagnostics if INTERNAL_ERROR in d.message]
    assert not internal, internal[:5]
    truth = json.loads((FIXTURES / "truth.json").read_text())
    total = sum(len(info["kernels"]) for info in truth["files"].values())
    assert total == truth["summary"]["kernel_definitions"] == 457
    matched, missed, extra = score(document(reports, "sm_90"), truth, str(FIXTURES / "src"))
    assert set(missed) == KNOWN_MISSED, missed[:20]  # a lost definition fails here; a new find asks for an update
    assert matched == total - len(KNOWN_MISSED)
    says("docs/performance.md", f"| {matched:,} / {total:,} = {matched / total:.1%} |")
    assert extra <= EXTRA  # few reported kernels that are not definitions


def test_the_scorer_counts_a_lost_definition_as_missed():
    truth = {"files": {"a.cu": {"kernels": [{"name": "k", "line": 3, "name_line": 3},
                                            {"name": "x1", "line": 9, "name_line": 9, "alt_line": 2}]}}}

    def doc(*kernels):
        return {"files": [{"path": "/src/a.cu", "kernels": [{"name": n, "line": ln} for n, ln in kernels]}]}

    assert score(doc(("k", 4), ("x1", 3)), truth, "/src") == (2, [], 0)
    assert score(doc(("k", 7), ("x1", 3)), truth, "/src") == (1, ["a.cu:3 k"], 1)  # name right, line wrong
    assert score(doc(("x1", 3)), truth, "/src") == (1, ["a.cu:3 k"], 0)
