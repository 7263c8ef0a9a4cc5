"""Issue 30, item 5: suppression comments on the line, on the next line, over a block and over the file,
and the misspelt or unused ones reported (CP003, CP002) as ruff reports an unused noqa (RUF100)."""

from __future__ import annotations

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.lint.rules import REGISTRY, select
from cudaperf.lint.run import lint_file
from cudaperf.lint.selection import default_rules

HEAD = "__global__ void k(const float* in, float* out) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
STRIDED = "  out[i] = in[i * 32];"
COALESCED = "  out[i] = in[i];"


def lint(body: str, rules=None, **options) -> list[tuple[int, str, str]]:
    code = HEAD + body + "\n}\n"
    report = analyze_source(code, "t.cu", Options(grid=(64, 1, 1), block=(256, 1, 1), resources="estimate",
                                                  **options))
    return [(f.line, f.code, f.message) for f in lint_file(report, rules or default_rules(), code)]


def test_each_form_suppresses_what_it_covers():
    assert [c for _, c, _ in lint(STRIDED)] == ["CP101"]
    assert lint(STRIDED + "  // cudaperf: ignore[CP101]") == []
    assert lint(STRIDED + "  /* cudaperf: ignore[uncoalesced-access] */") == []
    assert lint(STRIDED + "  // cudaperf: ignore") == []
    assert lint("  // cudaperf: ignore-next-line[CP101]\n" + STRIDED) == []
    assert lint("  // cudaperf: ignore-begin[CP1]\n" + STRIDED + "\n" + STRIDED + "\n  // cudaperf: ignore-end") == []
    ended = lint("  // cudaperf: ignore-begin[CP1]\n  // cudaperf: ignore-end\n" + STRIDED)
    assert [(line, c) for line, c, _ in ended] == [(3, "CP002"), (5, "CP101")]  # ended above: suppressing nothing
    assert lint("  // cudaperf: ignore-file[CP101]\n" + STRIDED) == []


def test_misspelt_directives_and_unknown_rules_are_reported():
    found = lint(STRIDED + "  // cudaperf: ignroe[CP101]")
    assert sorted((c, m) for _, c, m in found) == [
        ("CP003", "unknown directive `cudaperf: ignroe`; did you mean `ignore`?"),
        ("CP101", found[0][2])]  # the misspelt one suppressed nothing
    assert ("CP003", "unknown rule `CP1010` in `cudaperf: ignore`; did you mean `CP101`?") in \
        [(c, m) for _, c, m in lint(STRIDED + "  // cudaperf: ignore[CP1010]")]
    assert ("CP003", "unknown rule `uncoalesced-acess` in `cudaperf: ignore`; did you mean `uncoalesced-access`?") in \
        [(c, m) for _, c, m in lint(STRIDED + "  // cudaperf: ignore[uncoalesced-acess]")]
    assert "`cudaperf: ignore-next-line[` without its closing `]`" in \
        [m for _, _, m in lint(STRIDED + "  // cudaperf: ignore-next-line[CP101")]
    assert "`ignore-begin` without an `ignore-end`: it runs to the end of the file" in \
        [m for _, _, m in lint("  // cudaperf: ignore-begin[CP101]\n" + STRIDED)]
    assert [m for _, _, m in lint(COALESCED + "  // cudaperf: ignore-end")] == \
        ["`ignore-end` without an `ignore-begin` above it"]
    assert lint(COALESCED + "  /* cudaperf:launch grid=1 */") == []  # eval's launch specs are no suppression


def test_unused_suppressions_are_reported_when_their_rule_ran():
    assert lint(COALESCED + "  // cudaperf: ignore[CP101]") == \
        [(3, "CP002", "unused suppression: no CP101 finding on this line to suppress")]
    assert [m for _, _, m in lint(COALESCED + "  // cudaperf: ignore")] == \
        ["unused suppression: `cudaperf: ignore` suppresses nothing here"]
    assert [m for _, _, m in lint(STRIDED + "  // cudaperf: ignore[CP101, bank-conflict]")] == \
        ["unused suppression: no bank-conflict finding on this line to suppress"]
    assert [m for _, _, m in lint("  // cudaperf: ignore-file[CP4]\n" + COALESCED)] == \
        ["unused suppression: no CP4 finding in this file to suppress"]
    # a rule that did not run keeps its suppressions, and so does a blanket one when rules were left out
    assert lint(COALESCED + "  // cudaperf: ignore[CP101]", select(["CP102", "CP002"])) == []
    assert lint(COALESCED + "  // cudaperf: ignore", select(["CP102", "CP002"])) == []
    # unused-suppression itself can be silenced
    assert lint(COALESCED + "  // cudaperf: ignore[CP101, CP002]") == []


def test_a_rule_that_could_not_judge_the_line_keeps_its_suppression():
    code = ("__global__ void k(float* out, const float* in, int w) {\n"
            "  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
            "  out[x * w + y] = in[y * w + x];  // cudaperf: ignore[CP101]\n}\n")
    guessed = analyze_source(code, "t.cu", Options(resources="estimate"))  # the block is a guess: CP101 skipped
    assert lint_file(guessed, default_rules(), code) == []
    known = analyze_source(code, "t.cu", Options(resources="estimate", grid=(8, 8, 1), block=(16, 16, 1),
                                                 args={"w": 128}))
    assert lint_file(known, default_rules(), code) == []  # judged now, and the suppression is used


def test_file_rules_are_in_the_catalogue():
    assert {c: (REGISTRY[c].name, REGISTRY[c].scope) for c in ("CP001", "CP002", "CP003")} == {
        "CP001": ("syntax-error", "file"), "CP002": ("unused-suppression", "file"),
        "CP003": ("invalid-suppression", "file")}
