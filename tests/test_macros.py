"""The preprocessor subset islands rely on, and the kernels it recovers."""

from __future__ import annotations

from conftest import kernel_report

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.analysis.lower import Lowerer
from cudaperf.analysis.macros import expand, first_branches
from cudaperf.analysis.source import Macro


def macros(**defs: str) -> dict[str, Macro]:
    table = {}
    for name, spec in defs.items():
        params, _, body = spec.partition("|") if "|" in spec else ("", "", spec)
        table[name] = Macro(name, tuple(p for p in params.split(",") if p) if "|" in spec else None, body, 1)
    return table


def test_expand_pastes_stringifies_and_rescans():
    table = macros(S="x|#x", P="a,b|a ## b ## _k", L="X|X(relu) X(gelu)", D="n|__global__ void n##_kernel() {}",
                   N="42", SELF="SELF + 1")
    assert expand("S(hello) P(foo, bar)", table) == '"hello" foobar_k'
    assert expand("L(D)", table) == "__global__ void relu_kernel() {} __global__ void gelu_kernel() {}"
    assert expand("N * SELF", table) == "42 * SELF + 1"  # no recursion into itself
    assert expand("D", table) == "D"  # a function-like name without arguments stays


def test_first_branches_keeps_lines_and_one_branch():
    text = "a\n#ifdef X\nb\n#else\nc\n#endif\n#if 0\nd\n#else\ne\n#endif\nf"
    out = first_branches(text, set())
    assert out.count("\n") == text.count("\n")
    assert [line.strip() for line in out.split("\n") if line.strip()] == ["a", "c", "e", "f"]
    assert [line.strip() for line in first_branches(text, {"X"}).split("\n") if line.strip()] == ["a", "b", "e", "f"]


def test_generated_and_split_kernels_are_reported_at_their_lines():
    code = """#define OPS(X) X(relu, v > 0.f ? v : 0.f) X(neg, -v)
#define DEFINE(name, expr) __global__ void name##_kernel(const float* in, float* out) { \\
    int i = blockIdx.x * blockDim.x + threadIdx.x; float v = in[i]; out[i] = expr; }
#define KERNEL_LB(n) __global__ void __launch_bounds__(n)
OPS(DEFINE)
KERNEL_LB(128) qualified(float* p) { p[threadIdx.x] = 0.f; }
__global__ void
#ifdef BIG
__launch_bounds__(1024)
#else
__launch_bounds__(256)
#endif
split(float* p) { p[threadIdx.x] = 1.f; }
"""
    report = analyze_source(code, "m.cu", Options(grid=(4, 1, 1), block=(128, 1, 1)))
    found = {k.kernel.name: k for k in report.kernels}
    assert {n: k.kernel.line for n, k in found.items()} == {
        "relu_kernel": 5, "neg_kernel": 5, "qualified": 6, "split": 7}
    relu = found["relu_kernel"]
    assert [a.coalescing.sectors_per_request for a in relu.accesses] == [4.0, 4.0]


def test_parenthesised_plain_arguments_are_not_read_as_casts():
    """`((_i) + (_nx) * (_j))` with `i` and `j` as arguments parses as a cast of `+(nx) * (j)` to a
    type `i` unless the parentheses go; the index must keep both coordinates."""
    source = """#define IDX2(_nx, _i, _j) ((_i) + (_nx) * (_j))
__global__ void k(float* a, int nx) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    a[IDX2(nx, i, j)] = 1.f;
}"""
    kernel = analyze_source(source, "idx.cu", Options(grid=(4, 4, 1), block=(32, 8, 1), args={"nx": 128.0},
                                                      resources="estimate")).kernels[0].to_json()
    (store,) = kernel["memory"]["accesses"]
    assert "threadIdx.x" in store["index"] and "nx * (" in store["index"] and "threadIdx.y" in store["index"]
    assert store["pattern"] == "coalesced"


def _strided_kernels(source: str) -> set[str]:
    from cudaperf.lint.rules import select
    from cudaperf.lint.run import lint_file

    report = analyze_source(source, "k.cu", Options(grid=(8, 1, 1), block=(256, 1, 1), resources="estimate"))
    return {f.kernel for f in lint_file(report, select(["uncoalesced-access"]), source)}


REDEFINED = """
#define SCALE 2
__global__ void first(float* out) { out[(blockIdx.x * blockDim.x + threadIdx.x) * SCALE] = 1.0f; }
#define SCALE 1
__global__ void second(float* out) { out[(blockIdx.x * blockDim.x + threadIdx.x) * SCALE] = 1.0f; }
"""


def test_a_macro_redefined_between_kernels_takes_effect_from_its_line():
    """nvcc uses the last definition above each use (hexciton redefines its index macros per kernel)."""
    assert _strided_kernels(REDEFINED) == {"first"}


def test_definitions_in_arms_of_one_if_chain_are_alternatives():
    """`#ifdef A / #define SCALE 1 / #else / #define SCALE 2`: one of them is compiled, never the
    second after the first; the first arm is kept, as before."""
    source = REDEFINED.replace("#define SCALE 2", "#ifdef A\n#define SCALE 1\n#else\n#define SCALE 2\n#endif") \
        .replace("#define SCALE 1\n__global__ void second", "__global__ void second")
    assert _strided_kernels(source) == set()


def test_a_header_sees_the_macros_its_includer_defined_above_the_include(tmp_path):
    """debayer's kernel.h reads shared memory through `apron_pixel`, which image.h defines and main.cu
    includes first: analysed alone, the header must see it, and not what main.cu defines after it."""
    from cudaperf.analysis.analyzer import analyze_file

    (tmp_path / "geometry.h").write_text("#define AT(i) tile[(i) * STRIDE]\n#define STRIDE 2\n")
    (tmp_path / "kernel.h").write_text(
        "__global__ void k(float* out) {\n    __shared__ float tile[512];\n"
        "    tile[threadIdx.x] = out[threadIdx.x];\n    __syncthreads();\n"
        "    out[threadIdx.x] = AT(threadIdx.x) + LATE;\n}\n")
    (tmp_path / "main.cu").write_text('#include "geometry.h"\n#include "kernel.h"\n#define LATE 1\n'
                                      "int main() { k<<<1, 256>>>(0); }\n")
    report = analyze_file(tmp_path / "kernel.h", Options(resources="estimate"))
    (kernel,) = report.kernels
    shared_loads = [a for a in kernel.accesses if a.access.space == "shared" and a.access.kind == "load"]
    assert shared_loads and shared_loads[0].access.array == "tile"  # AT(...) expanded: a shared read
    assert not any(h.kind == "redundant-barrier" for h in kernel.sync)


IFDEF_ARMS = """
__global__ void k(float* a) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef USE_STRIDE
    a[t * 4] = 1.0f;
#else
    a[t] = 1.0f;
#endif
#if 0
    a[t * 8] = 2.0f;
#endif
}
"""


def test_the_arm_nvcc_compiles_is_the_one_analysed():
    """hexciton's `#ifdef USE_INITZERO` (defined nowhere): nvcc compiles the `#else` arm, so a finding
    belongs there; -D USE_STRIDE selects the first arm; `#if 0` is never compiled."""
    from cudaperf.lint.rules import select
    from cudaperf.lint.run import lint_file

    def lines(**options):
        report = analyze_source(IFDEF_ARMS, "k.cu", Options(grid=(8, 1, 1), block=(256, 1, 1),
                                                            resources="estimate", **options))
        return {f.line for f in lint_file(report, select(["uncoalesced-access"]), IFDEF_ARMS)}

    assert lines() == set()
    assert lines(defines={"USE_STRIDE": "1"}) == {5}


def _max_flops_kernel(name: str, declaration: str, result: str) -> str:
    return f"""template <class T>
__global__ void {name}(T *data, int nIters, T v) {{
  int gid = blockIdx.x*blockDim.x + threadIdx.x;
  {declaration}
  for (int j=0 ; j<nIters ; ++j) {{
     /* Each macro op has 20 operations.
        Unroll 12 more times for 240 operations total.
      */
     OP20 OP20 OP20 OP20 OP20 OP20
     OP20 OP20 OP20 OP20 OP20 OP20
  }}
  data[gid] = {result};
}}
"""


def test_an_island_keeps_the_template_line_above_its_kernel():
    """HeCBench maxFlops: statements made only of macro names break the parse of two kernels in a row,
    both are recovered as islands, and the `template <class T>` one line up still binds T."""
    ops = " ".join(["OP"] * 10)
    code = ("#define OP s=v-s;\n#define OP20  \\\n     " + ops + " \\\n     " + ops + "\n\n"
            + _max_flops_kernel("add1", "register T s = data[gid];", "s") + "\n"
            + _max_flops_kernel("add2", "register T s = data[gid], s2=10.0f-s;", "s+s2")
            + "void run(double* d) { add1<double><<<1, 128>>>(d, 8, 1.0); add2<double><<<1, 128>>>(d, 8, 1.0); }\n")
    report = analyze_source(code, "m.cu", Options(resources="estimate"))
    assert {k.kernel.name: k.kernel.line for k in report.kernels} == {"add1": 7, "add2": 21}
    assert {a.access.type_name for k in report.kernels for a in k.accesses} == {"double"}


def test_an_arithmetic_macro_is_lowered_once_per_values_it_reads(monkeypatch):
    """An object-like macro of plain arithmetic is lowered once per values of the names it reads;
    the report is the one lowering every use gives.  A value changed in between (`ifirst`) is
    lowered again, and so is a value an addition could fuse with (`NEG * 1` left open, then
    `NEG + s`): fusion goes by identity."""
    code = """#define NI (ilast - ifirst + 1)
#define BASE (-(ifirst + NI * jfirst))
#define NEG (-v)
__global__ void k(float* a, const float* b, int ifirst, int ilast, int jfirst, float s) {
    int i = threadIdx.x;
    a[BASE + i] = b[BASE + i + NI];
    float v = s * 2.f;
    float w = NEG * 1;
    a[i + 2 * NI] = NEG + s + w;
    ifirst = i;
    a[BASE + i] = b[BASE + blockIdx.x];
}"""
    expanded = []
    original = Lowerer._expand_expression

    def counted(self, macro, args, env, node):
        expanded.append(macro.name)
        return original(self, macro, args, env, node)

    monkeypatch.setattr(Lowerer, "_expand_expression", counted)
    reused = kernel_report(code, block=(128, 1, 1))
    reuses = list(expanded)
    expanded.clear()
    monkeypatch.setattr(Lowerer, "reuse_expansions", False)
    assert kernel_report(code, block=(128, 1, 1)) == reused
    assert (reuses, len(expanded)) == (["BASE", "NI", "NEG", "NEG", "BASE", "NI"], 12)
