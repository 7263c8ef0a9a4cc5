"""Barriers, collectives and uniformity as real code writes them (tests/kernels/sync_forms.cu):
every buggy kernel is named by its rule at a marked line, no clean twin by any sync rule.  Written
while tuning the analysis, so these pairs are regression checks, not a held-out measurement."""

from __future__ import annotations

import re

from conftest import ROOT

from cudaperf.analysis.analyzer import Options, analyze_file, analyze_source
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
    assert len(expected) >= 35 and marked
    report = analyze_file(PATH, Options(grid=(64, 1, 1), block=(256, 1, 1), resources="estimate"))
    found: dict[str, set[tuple[str, int]]] = {}
    for f in lint_file(report, select(["CP4"]), text):
        found.setdefault(f.kernel, set()).add((f.name, f.line))
    missed = [k for k, rule in expected.items() if rule != "clean" and
              not any(name == rule and line in marked for name, line in found.get(k, ()))]
    false_alarms = {k: found[k] for k, rule in expected.items() if rule == "clean" and found.get(k)}
    assert missed == [] and false_alarms == {}


def test_thread_dependence_through_an_unknown_divisor_is_no_evidence():
    """`warp = gid / WARP_SIZE` with WARP_SIZE defined on the compiler's command line: whether lanes
    disagree rests on a value the analysis does not have, so neither rule claims divergence."""
    source = """
__global__ void k(const int* rows, const float* x, float* out) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE;
    float v = 0.f;
    if (rows[warp + 1] > rows[warp] + 1) {
        for (int j = rows[warp]; j < rows[warp + 1]; ++j) v += x[j];
    } else {
        for (int j = 0; j < 8; ++j) v *= x[warp * 8 + j];
    }
    v += __shfl_down_sync(0xffffffff, v, 16);
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
"""
    report = analyze_source(source, "k.cu", Options(grid=(64, 1, 1), block=(256, 1, 1), resources="estimate"))
    assert not lint_file(report, select(["divergent-branch", "CP4"]), source)
    defined = "#define WARP_SIZE 1\n" + source  # one lane per row: the rows differ between lanes
    report = analyze_source(defined, "k.cu", Options(grid=(64, 1, 1), block=(256, 1, 1), resources="estimate"))
    assert {f.name for f in lint_file(report, select(["divergent-branch"]), defined)} == {"divergent-branch"}
