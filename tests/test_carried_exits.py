"""A loop whose test reads a value its body changes in a way the lowering keeps opaque
(`v = v & 1 ? 3 * v + 1 : v >> 1`) is stepped as the program steps it: a barrier inside is
divergent when lanes leave at different iterations, and silent when every lane runs as often."""

from __future__ import annotations

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

LAUNCH = Options(grid=(64, 1, 1), block=(128, 1, 1), resources="estimate")


def barrier_findings(start: str, update: str, test: str = "v > 1") -> list[int]:
    code = ("__global__ void steps(unsigned* out) {\n"
            f"  unsigned v = {start};\n"
            "  unsigned steps = 0;\n"
            f"  while ({test}) {{\n"
            f"    v = {update};\n"
            "    ++steps;\n"
            "    __syncthreads();\n"
            "  }\n"
            "  out[blockIdx.x * blockDim.x + threadIdx.x] = steps;\n"
            "}\n")
    report = analyze_source(code, "t.cu", LAUNCH)
    return [f.line for f in lint_file(report, select(["barrier-divergence"]), code)]


def test_lanes_leaving_at_different_iterations_make_the_barrier_divergent():
    collatz = "(v & 1u) ? 3u * v + 1u : v >> 1"
    assert barrier_findings("blockIdx.x * blockDim.x + threadIdx.x + 1", collatz) == [7]


def test_lanes_running_alike_from_different_starts_are_silent():
    # every lane starts in [1024, 2047]: ten halvings each
    assert not barrier_findings("threadIdx.x | 1024u", "v >> 1")
    assert barrier_findings("threadIdx.x | 1u", "v >> 1") == [7]  # [1, 127]: zero to six halvings

