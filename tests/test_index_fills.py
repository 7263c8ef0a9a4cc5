"""A scatter through an index array (`c[idx[t]] += v`) loses updates only where the index repeats:
what the host puts in the array decides (indices.py), not the code shape."""

from __future__ import annotations

import pytest

from cudaperf.analysis.analyzer import Options, analyze_file, analyze_source
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

KERNEL = """
#include <cstdlib>
#include <numeric>
__global__ void scatter(float* c, const int* __restrict__ rows, const float* a, int n, int C) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    int row = rows[t];
    for (int ch = 0; ch < C; ++ch)
        c[ROW * C + ch] += a[t * C + ch];
}
void run(float* d_c, const int* idx, const float* d_a, int n, int C) {
    scatter<<<(n + 255) / 256, 256>>>(d_c, idx, d_a, n, C);
}
"""

HOST = """
int main() {
    const int n = 4096, C = 64;
    int* h_idx = (int*) malloc(n * sizeof(int));
    FILL
    int* d_idx; float *d_c, *d_a;
    cudaMalloc(&d_idx, n * sizeof(int));
    cudaMalloc(&d_c, n * C * sizeof(float));
    cudaMalloc(&d_a, n * C * sizeof(float));
    cudaMemcpy(d_idx, h_idx, n * sizeof(int), cudaMemcpyHostToDevice);
    run(d_c, d_idx, d_a, n, C);
    cudaFree(d_idx);
    free(h_idx);
}
"""


def messages(source: str) -> list[str]:
    report = analyze_source(source, "k.cu", Options(resources="estimate"))
    return [f.message for f in lint_file(report, select(["global-race"]), source)]


def program(fill: str, row: str = "row") -> str:
    return KERNEL.replace("ROW", row) + HOST.replace("FILL", fill)


@pytest.mark.parametrize("fill", ["for (int i = 0; i < n; i++) h_idx[i] = i;",
                                  "for (int i = 0; i < n; ++i) { h_idx[i] = n - 1 - i; }",
                                  "for (int i = 0; i < n; i++) h_idx[i] = 2 * i + 1;",
                                  "std::iota(h_idx, h_idx + n, 0);"])
def test_a_scatter_through_a_host_permutation_is_silent(fill):
    assert messages(program(fill)) == []


@pytest.mark.parametrize("fill", ["for (int i = 0; i < n; i++) h_idx[i] = rand() % n;",
                                  "for (int i = 0; i < n; i++) h_idx[i] = i % 7;",
                                  "fread(h_idx, sizeof(int), n, stdin);",
                                  # filled after the copy: the device holds what malloc gave
                                  ""])
def test_a_scatter_through_repeating_or_unknown_indices_fires_and_names_the_index_array(fill):
    source = program(fill)
    if not fill:
        source = source.replace("run(d_c", "for (int i = 0; i < n; i++) h_idx[i] = i;\n    run(d_c")
    found = messages(source)
    assert len(found) == 1 and "loads from `rows`" in found[0] and "same index" in found[0]


def test_distinct_indices_that_the_address_folds_together_still_race():
    """`c[(row / 2) * C + ch]`: rows 0 and 1 of the permutation update one row of c."""
    assert len(messages(program("for (int i = 0; i < n; i++) h_idx[i] = i;", row="(row / 2)"))) == 1


def test_a_permutation_something_else_may_overwrite_is_not_trusted():
    fill = "for (int i = 0; i < n; i++) h_idx[i] = i;"
    assert len(messages(program(fill).replace("cudaMemcpy(d_idx", "cudaMemset(d_idx, 0, 4);\n    cudaMemcpy(d_idx")
                        .replace("    run(d_c", "    cudaMemset(d_idx, 0, 4);\n    run(d_c"))) == 1
    shuffled = program(fill).replace("cudaMemcpy(d_idx", "mangle(h_idx, n);\n    cudaMemcpy(d_idx")
    assert len(messages("void mangle(int* p, int n);\n" + shuffled)) == 1


def test_the_host_program_that_includes_a_kernel_header_fills_its_index_array(tmp_path):
    """The launcher in the kernels' header, its caller and the fill in main.cu (HeCBench's layout),
    which passes the host array on to a function another header declares read-only."""
    for name, fill in (("identity", "for (int i = 0; i < n; i++) h_idx[i] = i;"),
                       ("labels", "for (int i = 0; i < n; i++) h_idx[i] = i % 7;")):
        (tmp_path / name).mkdir()
        header = tmp_path / name / "kernels.h"
        header.write_text(KERNEL.replace("ROW", "row"))
        (tmp_path / name / "reference.h").write_text("void reference(const int* idx, int n) {}\n")
        host = HOST.replace("FILL", fill).replace("cudaFree(d_idx);", "reference(h_idx, n);\n    cudaFree(d_idx);")
        (tmp_path / name / "main.cu").write_text('#include "kernels.h"\n#include "reference.h"\n' + host)
        found = lint_file(analyze_file(header, Options(resources="estimate")), select(["global-race"]),
                          header.read_text())
        assert len(found) == (name == "labels"), name
