"""Dependence levels do not depend on the order they are asked in.  A loop counter is guessed
uniform while its own level is worked out; levels found meanwhile (the update `i + 1`) leaned on
that guess and must not outlive it when the counter proves per-thread."""

from __future__ import annotations

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.analysis.divergence import Dependence
from cudaperf.analysis.ir import Access, Branch, Loop, walk
from cudaperf.analysis.symbolic import Expr, Op, Opaque
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

LOOPS = """
__global__ void k(float* a, const int* n, const int* rows, int m) {
  for (int i = 0; i < n[threadIdx.x]; i++) a[i + 1] = 0.f;  // per thread through its condition only
  for (int r = 0; r < m; r++)  // uniform
    for (int j = rows[r]; j < rows[r + 1]; j += 1) a[j] += 1.f;  // uniform: follows a uniform counter
  for (int r = threadIdx.x; r < m; r += 64)  // per thread through its start
    for (int j = rows[r]; j < rows[r + 1]; j += 1) a[j + 2] += 1.f;  // per thread through the outer counter
  float s = 0.f;
  for (int t = 0; t < m; t++) { s = s * 0.5f + a[t]; if (t == 3) s = a[threadIdx.x]; }
  a[m] = s;
}
"""


def expressions(kernel) -> list[Expr]:
    """Every subexpression of the kernel's addresses, stored values, loop parts and conditions,
    parents before children."""
    roots = []
    for stmt, _ in walk(kernel.body):
        if isinstance(stmt, Access):
            roots += [stmt.offset] + ([stmt.value] if stmt.value is not None else [])
        elif isinstance(stmt, Loop):
            roots += [stmt.init, stmt.update, stmt.condition, *(p for parts in stmt.carried.values() for p in parts)]
        elif isinstance(stmt, Branch):
            roots.append(stmt.condition)
    out, seen, stack = [], set(), list(reversed(roots))
    while stack:
        expr = stack.pop()
        if id(expr) not in seen:
            seen.add(id(expr))
            out.append(expr)
            stack += reversed(expr.args if isinstance(expr, Op) else expr.follows if isinstance(expr, Opaque) else ())
    return out


def levels(kernel, exprs: list[Expr], unknown: int) -> dict[int, int]:
    dependence = Dependence(kernel)
    return {id(e): dependence.level(e, unknown=unknown) for e in exprs}


def test_levels_are_the_same_in_either_order():
    kernel = analyze_source(LOOPS, "k.cu", Options(resources="estimate", grid=(4, 1, 1), block=(64, 1, 1)))\
        .kernels[0].kernel
    exprs = expressions(kernel)
    for unknown in (3, 0):
        assert levels(kernel, exprs, unknown) == levels(kernel, exprs[::-1], unknown)
    loops = [s for s, _ in walk(kernel.body) if isinstance(s, Loop)]
    counted, outer, inner, outer_thread, inner_thread, carrying = loops
    for order in ((counted.condition, counted.update), (counted.update, counted.condition)):
        dependence = Dependence(kernel)
        assert [dependence.level(e) for e in order] == [3, 3]  # `i + 1` asked after `i < n[tid]` too
    dependence = Dependence(kernel)
    assert dependence.level(inner.condition) == dependence.level(outer.update) == 0
    assert dependence.level(inner_thread.update) == dependence.level(outer_thread.condition) == 3
    assert max(dependence.level(p) for parts in carrying.carried.values() for p in parts) == 3


def padded(bound: str, defines: str = "") -> str:
    """A block-stride loop with two barriers, its bound and step built from WARPS (and SDIV),
    macros a header linted alone may not see."""
    return (defines + "__global__ void k(const float* in, float* out, int width) {\n"
            "  __shared__ float tile[1024]; float acc = 0.f;\n"
            f"  for (int j = threadIdx.x; j < {bound}; j += WARPS * 32) {{\n"
            "    tile[threadIdx.x] = j < width ? in[j] : 0.f;\n    __syncthreads();\n"
            "    acc += tile[(threadIdx.x + 1) % blockDim.x];\n    __syncthreads();\n  }\n"
            "  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;\n}\n")


DEFINED = "#define WARPS 16\n#define SDIV(x, y) (((x) + (y) - 1) / (y))\n"
PADDED = ("SDIV(width, WARPS * 32) * WARPS * 32", "(width + WARPS * 32 - 1) / (WARPS * 32) * (WARPS * 32)")


def barrier_lines(code: str) -> list[int]:
    report = analyze_source(code, "k.cuh", Options(resources="estimate", grid=(8, 1, 1), block=(512, 1, 1)))
    return [f.line for f in lint_file(report, select(["barrier-divergence"]), code)]


def test_a_counter_per_thread_through_its_start_is_seen_whatever_the_query_order():
    # 507 of 512 threads enter: the barriers diverge (missed while `j + WARPS * 32` kept the guess)
    assert barrier_lines(padded("WARPS * 32 - 5", DEFINED)) == [7, 9]
    assert barrier_lines(padded("width", DEFINED)) == [7, 9]
    for bound in PADDED:  # a multiple of the block: every thread runs every iteration
        assert barrier_lines(padded(bound, DEFINED)) == []


def test_a_split_that_rests_on_a_lost_macro_is_no_evidence():
    """WARPS unseen: the padded bound agrees in every thread when WARPS * 32 is a multiple of the
    block, so calling its barriers divergent would be a guess about WARPS (bmf-cuda's headers)."""
    for bound in PADDED:
        assert barrier_lines(padded(bound)) == []
    assert barrier_lines(padded("width")) == [5, 7]  # an argument bound splits whatever WARPS is
