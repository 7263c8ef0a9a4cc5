"""Macros that made the grammar misread valid code (HeCBench, cuda-samples): qualifier macros
(`#define DEV __device__`, `#define RESTRICT __restrict__`), GCC's `__restrict`, statement macros
called without `;`, and kernels a macro hides, which the islands read (source.mend_macro_uses,
analyzer.FileReport's syntax diagnostics)."""

from __future__ import annotations

import pytest
from conftest import accesses, kernel_report

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.analysis.source import load, mend_macro_uses


def _syntax(code: str) -> list[str]:
    report = analyze_source(code, "test.cu", Options(resources="estimate"))
    return [d.message for d in report.diagnostics if d.kind == "syntax"]


RESTRICT = """
#define RESTRICT __restrict__
__global__ void scale(const float* RESTRICT in, float* RESTRICT out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}
"""


def test_a_restrict_macro_leaves_the_parameters_their_names():
    """s3d's `const real* RESTRICT T`: the grammar named the parameter `RESTRICT` and lost `T`'s accesses."""
    r = kernel_report(RESTRICT, n=1 << 20)
    assert accesses(r, "in", "load")[0]["pattern"] == "coalesced"
    assert accesses(r, "out", "store")[0]["sectors_per_request"] == pytest.approx(4.0)
    assert not _syntax(RESTRICT)


def test_gcc_restrict_spelling_is_read():
    """mis-cuda's `const int* const __restrict nidx`: the degree read from it differs per thread."""
    code = """
    __global__ void init(const int nodes, const int* const __restrict nidx, int* const __restrict nstat) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < nodes) {
        int degree = nidx[i + 1] - nidx[i];
        if (degree > 0) nstat[i] = degree;
      }
    }"""
    r = kernel_report(code, nodes=1 << 20)
    assert len(accesses(r, "nidx", "load")) == 2
    assert [b["uniformity"] for b in r["branches"] if b["condition"] == "degree > 0"] == ["thread"]
    assert not _syntax(code)


DEVICE_HELPERS = """
#define DEV __device__
#define HD __host__ __device__ __forceinline__
#define NOTHING
DEV static int upper(int i, int n) { return i * n; }
template <typename T> HD T twice(T v) { return 2 * v; }
__global__ void k(float* NOTHING out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[upper(i, n)] = twice(in[i]);
}
"""


def test_functions_a_qualifier_macro_declares_device_code_are_inlined():
    """prna's `DEV static real_t f(...)`: a syntax error, and the helper's index was an opaque call."""
    r = kernel_report(DEVICE_HELPERS, n=4)
    store = accesses(r, "out", "store")[0]
    assert "upper" not in store["index"] and "* n" in store["index"].replace("* 4", "")
    assert store["pattern"] == "strided"
    assert not _syntax(DEVICE_HELPERS)


def test_directives_comments_and_reserved_names_are_left_alone():
    code = """#define DEV __device__
#ifdef DEV
// DEV helpers
#endif
#define __global__
DEV int f(int x) { return x; } /* DEV */
"""
    source = load(code.encode(), "t.cu")
    mend_macro_uses(source)
    mended = source.data.decode()
    assert mended.splitlines()[1:4] == code.splitlines()[1:4]  # the directive and the comment
    assert mended.splitlines()[5] == "    int f(int x) { return x; } /* DEV */"
    assert len(mended) == len(code) and source.device_qualifiers == [code.index("DEV int")]
    # a macro of a reserved name (`#define __global__` for a host build) is not the preprocessor nvcc runs
    kernel = load(b"#define __global__\n__global__ void k(int *p) { p[0] = 1; }\n", "t.cu")
    mend_macro_uses(kernel)
    assert b"__global__ void k" in kernel.data


STATEMENT_MACRO = """
#define CHECK(call) { int e = (call); if (e) return; }
__global__ void fill(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}
void run(float* d, int n) {
  CHECK(cudaMalloc(&d, n * sizeof(float)))
  fill<<<(n + 127) / 128, 128>>>(d, n);
}
"""


def test_a_statement_macro_without_semicolon_does_not_swallow_the_launch():
    """`CHECK(cudaMalloc(...))` at the end of a line: the next line's launch was read as part of it."""
    report = analyze_source(STATEMENT_MACRO, "test.cu", Options(resources="estimate"))
    assert report.kernels[0].launch.block == (128, 1, 1)
    assert not [d for d in report.diagnostics if d.kind == "syntax"]


def test_missing_semicolons_after_statement_macros_are_not_syntax_errors():
    """At column 0 there is no blank to hold a `;`: the grammar inserts it, and no error is reported."""
    code = """#define DECLARE(name) int name##_count;
__global__ void k(int* p) { p[threadIdx.x] = 0; }
DECLARE(a)
DECLARE(b)
"""
    assert not _syntax(code)
    assert _syntax(code.replace("int name##_count;", "name##_count"))  # a body that does not end the statement


ISLANDS = """
#define GLOBAL __global__
#define LAUNCH_BOUNDS(threads, blocks) __launch_bounds__(threads, blocks)
GLOBAL static void hidden(float* x) { x[threadIdx.x] = 0.0f; }
__global__ void
LAUNCH_BOUNDS(128, 4)
bounded(float* x) { x[threadIdx.x] = 1.0f; }
"""


def test_kernels_read_from_their_islands_report_no_syntax_error():
    report = analyze_source(ISLANDS, "test.cu", Options(resources="estimate"))
    assert [k.kernel.name for k in report.kernels] == ["hidden", "bounded"]
    assert report.kernels[1].kernel.launch_bounds[:2] == (128, 4)
    assert not [d for d in report.diagnostics if d.kind == "syntax"]
    broken = ISLANDS.replace("x[threadIdx.x] = 0.0f;", "x[threadIdx.x = ;")
    assert _syntax(broken)  # an island that does not parse either: the error is the code's


def _mended(code: str):
    source = load(code.encode(), "t.cu")
    mend_macro_uses(source)
    return source


def test_a_macro_another_arm_defines_otherwise_is_blanked_only_if_every_arm_is_a_qualifier():
    """`SHARED` is `__shared__` in the `#else` arm: blanking the first arm's nothing would make the
    tile a local array; `HD` is a qualifier in both arms, and device code in one."""
    code = """#ifdef NO_SHARED
#define SHARED
#else
#define SHARED __shared__
#endif
#ifndef __CUDACC__
#define HD
#else
#define HD __host__ __device__
#endif
HD int up(int i) { return i + 1; }
__global__ void k(float* out) { SHARED float tile[256]; tile[threadIdx.x] = 0; out[up(threadIdx.x)] = tile[0]; }
"""
    source = _mended(code)
    assert b"SHARED float tile" in source.data and b"HD int up" not in source.data
    r = kernel_report(code, grid=(1, 1, 1), block=(256, 1, 1))
    assert "up" not in accesses(r, "out", "store")[0]["index"]  # inlined: up is device code in nvcc's arm


def test_a_device_variable_declared_through_a_macro_stays_in_global_memory():
    code = """#define DEV __device__
DEV float table[256];
__global__ void k(float* out) { out[threadIdx.x] = table[threadIdx.x]; }
"""
    r = kernel_report(code, grid=(1, 1, 1), block=(256, 1, 1))
    load_ = accesses(r, "table", "load")
    assert load_ and load_[0]["space"] == "global" and load_[0]["pattern"] == "coalesced"


def test_comments_and_literals_neither_hide_nor_take_a_use():
    code = """#define DEV __device__
#define RESTRICT __restrict__
// inputs: data/*.bin
void g(const char* s = "//", float* RESTRICT q);
DEV /* helper */ int f(int x) { return x; }
/* end */ const char* name = "RESTRICT";
"""
    source = _mended(code)
    text = source.data.decode()
    assert "RESTRICT q" not in text and "DEV /*" not in text and '"RESTRICT"' in text
    assert "data/*.bin" in text and len(text) == len(code)
    from cudaperf.analysis.project import scoped
    _, scope = scoped(load(code.encode(), "t.cu"))
    assert "f" in scope.device_functions  # a comment between the macro and the function


def test_a_statement_macro_whose_parenthesis_closes_in_a_comment_gets_no_semicolon_there():
    code = "#define CHECK(x) { x; }\nvoid h() {\n  CHECK(  // 1) allocate\n    run())\n  go();\n}\n"
    mended = _mended(code).data.decode()
    assert "// 1) allocate" in mended and "run())\n; go();" in mended


def test_syntax_errors_the_islands_do_not_explain_are_still_reported():
    hidden = "".join(f"GLOBAL static void k{i}(float* x) {{ x[threadIdx.x] = {i}.0f; }}\n" for i in range(25))
    code = "#define GLOBAL __global__\n" + hidden + "__global__ void bad(float* x) { x[threadIdx.x = ; }\n"
    assert _syntax(code)  # past the first twenty errors, which the islands explain
    unclosed = "#define GLOBAL __global__\nGLOBAL void hidden(float* x) {\n  if (x) {\n    x[0] = 1;\n}\n"
    assert any("missing }" in m for m in _syntax(unclosed))  # an island whose braces the file never closes


def test_a_macro_made_of_statement_macros_is_one_too():
    """bitcracker's `ALL_ROUND_B1_1()`: a row of `ROUND(...)` calls, each ending in `;`."""
    code = """#define ROUND(a, b) a += b;
#define ALL() \\
  ROUND(x, 1) \\
  ROUND(y, 2)
#define SQ(v) ((v) * (v))
__global__ void k(float* out, float x, float y) {
  ALL()
  ALL()
  out[threadIdx.x] = SQ(x)
    + y;
}
"""
    assert not _syntax(code)
    assert "SQ(x)\n    + y;" in _mended(code).data.decode()  # an expression macro continued: no `;`
