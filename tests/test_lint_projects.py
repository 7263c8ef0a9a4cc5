"""Linting real projects: launches across files, headers with kernels, guessed launches said so,
bounded time (the per-kernel budget, trees that stop growing), streaming, strict lowering."""

from __future__ import annotations

import time

import pytest
from conftest import ROOT

from cudaperf.analysis import symbolic
from cudaperf.analysis.analyzer import Options, UnhandledSyntax, analyze_file, analyze_source, find_sources
from cudaperf.analysis.budget import BudgetExceeded, kernel_budget
from cudaperf.analysis.races import races
from cudaperf.analysis.resources import parse_ptxas
from cudaperf.analysis.sampling import Sampler
from cudaperf.analysis.source import SourceError
from cudaperf.lint.rules import REGISTRY, select
from cudaperf.lint.run import lint_file, lint_one, lint_paths

HEADER = """#pragma once
__global__ void scale(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= 2.0f;
}
__global__ void rows(float* a, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    a[blockIdx.y * w + x] = 1.0f;
}
"""
MAIN = """#include "kernels/k.cuh"
#define N 1000
int main() {
    float* d;
    dim3 grid, block;
    block.x = 128;
    grid.x = (N + 127) / 128;
    scale<<<grid, block>>>(d, N);
    dim3 g2;
    g2 = dim3(8, 4);
    rows<<<g2, dim3(64, 2)>>>(d, 64);
    return 0;
}
"""


@pytest.fixture
def project(tmp_path):
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels" / "k.cuh").write_text(HEADER)
    (tmp_path / "main.cu").write_text(MAIN)
    (tmp_path / "kernels" / "util.h").write_text("#pragma once\ninline int twice(int x) { return 2 * x; }\n")
    (tmp_path / "kernels" / "ops.hpp").write_text(HEADER.replace("scale", "scale2").replace("rows", "rows2"))
    return tmp_path


def test_a_header_kernel_takes_its_launch_from_the_program_that_launches_it(project):
    report = analyze_file(project / "kernels" / "k.cuh", Options(resources="estimate"))
    launches = {k.kernel.name: k.launch for k in report.kernels}
    # dim3 declared, then assigned field by field / as a whole, in another file one directory up
    assert launches["scale"].block == (128, 1, 1) and launches["scale"].grid == (8, 1, 1)
    assert launches["scale"].args["n"] == 1000 and launches["scale"].guessed == ()
    assert launches["rows"].grid == (8, 4, 1) and launches["rows"].block == (64, 2, 1)


def test_types_constants_and_constant_tables_come_from_included_local_headers(tmp_path):
    (tmp_path / "params.h").write_text("#pragma once\nconst int TILE = 32;\nstruct P { float a, b, c, d; };\n"
                                       "__constant__ float coeffs[16];\n")
    (tmp_path / "use.cu").write_text(
        '#include "params.h"\n__global__ void k(float* out, P* ps) {\n  __shared__ float t[TILE][TILE];\n'
        "  t[threadIdx.y][threadIdx.x] = coeffs[threadIdx.x % 16] + ps[threadIdx.x].a;\n}\n")
    kernel = analyze_file(tmp_path / "use.cu", Options(resources="estimate", block=(32, 32, 1))).kernels[0]
    spaces = {a.access.array: (a.access.space, a.pattern) for a in kernel.accesses}
    assert kernel.resources.static_smem == 32 * 32 * 4
    assert spaces["coeffs"][0] == "constant" and spaces["ps"] == ("global", "strided")  # 16-byte structs


def test_headers_and_cpp_files_holding_kernels_are_linted(project):
    found = {p.name for p in find_sources([project])}
    assert found == {"main.cu", "k.cuh", "ops.hpp"}  # util.h defines no kernel


RACY = ("__global__ void k(float* out) { __shared__ float s[256]; s[threadIdx.x] = 1.f;"
        " out[threadIdx.x] = s[threadIdx.x ^ 32]; }")  # a neighbour warp's word, in any block of two warps or more


def test_launch_dependent_findings_say_when_the_launch_was_guessed():
    def races(options):
        report = analyze_source(RACY, "t.cu", options)
        return [f for f in lint_file(report, select(["shared-race"]), RACY)]

    guessed = races(Options(resources="estimate"))
    given = races(Options(resources="estimate", block=(256, 1, 1), grid=(4, 1, 1)))
    assert guessed and all("guessed launch: block 256x1x1 is a default" in f.message for f in guessed)
    assert given and not any("guessed" in f.message for f in given)


def test_a_kernel_past_its_budget_is_reported_with_a_note(tmp_path):
    body = "".join(f"    a[{i}] = a[{i + 1}] * 2.f;\n" for i in range(200))
    path = tmp_path / "big.cu"
    path.write_text(f"__global__ void big(float* a) {{\n{body}}}\n")
    bounded = lint_one(str(path), Options(resources="estimate", budget=0.0), list(REGISTRY))
    assert bounded.error is None and len(bounded.notes) == 1
    assert "budget" in bounded.notes[0].text() and "big" in bounded.notes[0].text()
    assert lint_one(str(path), Options(resources="estimate", budget=None), list(REGISTRY)).notes == []


def test_the_race_joins_stop_at_the_budget():
    # they never looked at it: a file of kernels with thousands of accesses (HeCBench's
    # logic-rewrite) took two minutes without one budget note
    stores = "".join(f"        s[(threadIdx.x + {i}) % 256] = s[(threadIdx.x + {i + 1}) % 256] + 1.f;\n"
                     for i in range(120))
    code = (f"__global__ void k(float* a, int n) {{\n    __shared__ float s[256];\n"
            f"    for (int t = 0; t < n; ++t) {{\n{stores}        __syncthreads();\n    }}\n"
            f"    a[threadIdx.x] = s[threadIdx.x];\n}}\n")
    report = analyze_source(code, "loop.cu", Options(resources="estimate", block=(256, 1, 1), budget=None))
    (kernel,) = report.kernels
    assert any(h.kind == "shared-race" for h in kernel.sync)  # the stores race with the next line's loads
    with kernel_budget(0.0), pytest.raises(BudgetExceeded):
        list(races(kernel.kernel, kernel.graph, Sampler(kernel.launch)))


def test_a_helper_calling_itself_twice_unrolls_a_few_levels_not_255_copies():
    # logic-rewrite's Eval and CalcMFFC: 2^8 - 1 inlined copies of each branch made two kernels
    # stop at the budget; every copy reads the same source lines
    code = """
__device__ int eval(int cur, int *match, const int *left, const int *right) {
    if (match[cur] > -1) return 0;
    match[cur] = 1;
    return 1 + eval(left[cur], match, left, right) + eval(right[cur], match, left, right);
}
__global__ void k(int *out, int *match, const int *left, const int *right) {
    out[threadIdx.x] = eval(threadIdx.x, match, left, right);
}
"""
    (kernel,) = analyze_source(code, "eval.cu", Options(resources="estimate", budget=None)).kernels
    copies = [b for b in kernel.branches if b.line == 3]
    assert len(copies) == 2 ** 4 - 1  # four levels (lower.calls._RECURSION_DEPTH); inline depth 8 gave 255
    assert all(b.result.uniformity == "thread" for b in copies)  # `match[cur]`: per-thread data at every level


def test_a_sorting_network_keeps_its_expressions_small_and_fast():
    # segsort's generated bitonic headers: `x = c ? x : y` chains double the tree per step
    x, y = symbolic.Sym("tid.x"), symbolic.Sym("arg:n")
    start = time.perf_counter()
    for _ in range(200):
        c = symbolic.op("<", x, y)
        x, y = symbolic.op("?:", c, x, y), symbolic.op("?:", c, y, x)
    assert time.perf_counter() - start < 2.0 and "expression too large" in str(x)
    assert max(e.size for e in (x, y) if isinstance(e, symbolic.Op)) <= symbolic.MAX_EXPR_NODES
    assert hash(symbolic.op("+", y, y)) == hash(symbolic.op("+", y, y))


def test_findings_stream_file_by_file_in_order(project):
    seen = []
    linted, _, errors = lint_paths([str(project)], Options(resources="estimate"), select(), jobs=1,
                                          emit=lambda result: seen.append(result[0]))
    assert seen == linted == [str(p) for p in find_sources([project])] and not errors


def test_contiguous_float4_shared_access_is_conflict_free():
    code = ("__global__ void k(float4* out) { __shared__ float4 s[256]; s[threadIdx.x] = out[threadIdx.x];"
            " __syncthreads(); out[threadIdx.x] = s[255 - threadIdx.x]; }")
    report = analyze_source(code, "t.cu", Options(resources="estimate", block=(256, 1, 1), grid=(1, 1, 1)))
    shared = [a for a in report.kernels[0].accesses if a.banks is not None]
    assert shared and all(a.banks.wavefronts_per_request == 4 and a.banks.ways == 1 for a in shared)
    assert not lint_file(report, select(["bank-conflict"]), code)


# ptxas 13.0 -v for a kernel calling a __noinline__ device function: the callee's properties
# come after the kernel's and must not overwrite them
PTXAS_LOG = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z2k2Pf' for 'sm_90'
ptxas info    : Function properties for _Z2k2Pf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 0 barriers
ptxas info    : Compiling entry function '_Z2k1Pfi' for 'sm_90'
ptxas info    : Function properties for _Z2k1Pfi
    256 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
ptxas info    : Used 40 registers, used 0 barriers, 256 bytes cumulative stack size
ptxas info    : Function properties for _Z3devPfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
"""


def test_spills_belong_to_the_kernel_ptxas_reports_them_for():
    resources = parse_ptxas(PTXAS_LOG)
    assert resources["k1"].spill_stores == 8 and resources["k1"].stack_bytes == 256
    assert resources["k2"].spill_stores == 0 and resources["k2"].registers_per_thread == 10


def test_low_occupancy_is_never_blamed_on_estimated_registers():
    loads = " + ".join(f"a[threadIdx.x + {i}]" for i in range(120))
    code = f"__global__ void k(float* a, float* b, float* c, float* d) {{ b[threadIdx.x] = {loads}; }}"
    report = analyze_source(code, "t.cu", Options(resources="estimate", block=(512, 1, 1), grid=(8, 1, 1)))
    kernel = report.kernels[0]
    assert kernel.resources.source == "estimate" and kernel.occupancy.limiter == "registers"
    assert kernel.occupancy.theoretical < 0.5
    assert not lint_file(report, select(["low-occupancy"]), code)


# Constructs of the test corpora the lowering does not handle yet (file: construct); strict mode
# must raise on exactly these and lower everything else.
KNOWN_UNHANDLED = {
    "samples/language/modern_cpp_kernels.cu": "parameter_pack_expansion",
    "samples/cooperative_groups/cg_reductions.cu": "type_descriptor",  # a type where a value is read
    "samples/language/textures_and_managed.cu": "type_descriptor",
    "cub_lite/device/dispatch_radix_sort.cuh": "type_descriptor",
    "validation/kernels/reduce.cu": "type_descriptor",
    "planted/divergent_branch.cu": "type_descriptor",
    "samples/language/device_lambdas.cu": "lambda_expression",
}
CORPORA = ["tests/corpus/kernels", "tests/validation/kernels", "tests/recall_fixtures/src", "tests/sync_suite",
           "tests/planted", "tests/kernels"]


@pytest.mark.slow
def test_the_test_corpora_lower_under_strict_mode():
    unexpected = []
    for path in find_sources([ROOT / c for c in CORPORA]):
        known = next((v for k, v in KNOWN_UNHANDLED.items() if str(path).endswith(k)), None)
        try:
            analyze_file(path, Options(resources="estimate", strict=True))
        except UnhandledSyntax as exc:
            if known is None or known not in str(exc):
                unexpected.append(f"{path.relative_to(ROOT)}: {exc}")
        except SourceError:
            continue
    assert not unexpected, "\n".join(unexpected)


def test_strict_mode_raises_where_the_default_skips():
    code = "__global__ void k(float* a) { auto f = [&](int i) { a[i] = 1.f; }; f(threadIdx.x); }"
    assert analyze_source(code, "t.cu", Options(resources="estimate")).kernels
    with pytest.raises(UnhandledSyntax, match="lambda_expression"):
        analyze_source(code, "t.cu", Options(resources="estimate", strict=True))


def test_two_dimensional_patterns_wait_for_a_known_block_shape():
    code = ("__global__ void k(float* out) { __shared__ float t[32][32]; t[threadIdx.y][threadIdx.x] = 1.f;"
            " __syncthreads(); out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y]; }")

    def conflicts(options):
        return lint_file(analyze_source(code, "t.cu", options), select(["bank-conflict"]), code)

    # which threads share a warp is a guess: the store conflicts 2-way under 16x16 and not under 32x8,
    # so it is left out; the transposed read conflicts under every shape tried, and says so
    (guessed,) = conflicts(Options(resources="estimate"))
    assert guessed.column == code.index("t[threadIdx.x]") + 1
    assert "16.0-way to 32.0-way bank conflict under every block shape tried (16x16, 32x8, 32x32" in guessed.message
    assert len(conflicts(Options(resources="estimate", block=(16, 16, 1), grid=(1, 1, 1)))) == 2
    (given,) = conflicts(Options(resources="estimate", block=(32, 32, 1), grid=(1, 1, 1)))
    assert "32.0-way bank conflict (32.0 wavefronts per request)" in given.message


def test_a_launch_in_a_file_that_does_not_include_the_kernel_is_not_borrowed(tmp_path):
    # a flat folder of unrelated programs (a benchmark suite's kernels) reuses kernel names
    (tmp_path / "a.cu").write_text("__global__ void k(float* a) { a[threadIdx.x] = 0.f; }\n")
    (tmp_path / "b.cu").write_text("__global__ void k(float* a) { a[threadIdx.x] = 1.f; }\n"
                                   "int main() { k<<<1, 64>>>(0); }\n")
    launch = analyze_file(tmp_path / "a.cu", Options(resources="estimate")).kernels[0].launch
    assert launch.guessed == ("grid", "block")


def test_launch_bounds_with_an_unresolved_thread_count_give_no_block_size():
    code = "template <int W> __global__ __launch_bounds__(W * 32, 2) void k(float* a) { a[threadIdx.x] = 0; }"
    kernel = analyze_source(code, "t.cu", Options(resources="estimate")).kernels[0]
    assert kernel.kernel.launch_bounds == () and kernel.launch.block == (256, 1, 1)  # not 2, the minimum blocks


def test_launches_reach_kernels_through_the_translation_unit_or_the_declaring_header(tmp_path):
    # seam-carving: main.cu includes kernels.h and then wrappers.h, which launches without including
    # (with the block size a constant of kernels.h)
    (tmp_path / "kernels.h").write_text("const int THREADS = 96;\n"
                                        "__global__ void a(float* p) { p[threadIdx.x] = 0.f; }\n")
    (tmp_path / "wrappers.h").write_text("void run(float* p) { a<<<4, THREADS>>>(p); }\n")
    (tmp_path / "main.cu").write_text('#include "kernels.h"\n#include "wrappers.h"\nint main() { run(0); }\n')
    # eikonal: kernel.cu defines, kernel.h declares, fim.cu includes the header and launches
    (tmp_path / "kernel.cu").write_text("__global__ void b(float* p) { p[threadIdx.x] = 0.f; }\n")
    (tmp_path / "kernel.h").write_text("__global__ void b(float* p);\n")
    (tmp_path / "fim.cu").write_text('#include "kernel.h"\nvoid go(float* p) { b<<<2, 160>>>(p); }\n')
    blocks = {k.kernel.name: k.launch.block for name in ("kernels.h", "kernel.cu")
              for k in analyze_file(tmp_path / name, Options(resources="estimate")).kernels}
    assert blocks == {"a": (96, 1, 1), "b": (160, 1, 1)}


def test_preprocessor_lines_inside_a_launch_do_not_shift_its_arguments():
    # cuda-samples' Sobel launch: `#ifndef`/`#endif` among the arguments parse as ERROR nodes
    code = ("__global__ void k(float* a, int m,\n#ifndef FIXED\n int pitch,\n#endif\n int n) {"
            " a[threadIdx.x * pitch] = n + m; }\nconst int M = 3, PITCH = 2, N = 7;\n"
            "void run(float* a) {\n    k<<<1, 128>>>(a, M,\n#ifndef FIXED\n        PITCH,\n#endif\n        N);\n}\n")
    launch = analyze_source(code, "t.cu", Options(resources="estimate")).kernels[0].launch
    assert launch.args == {"m": 3, "pitch": 2, "n": 7}


def test_strict_flag_makes_unhandled_syntax_a_one_line_error(tmp_path, capsys):
    from cudaperf.cli import main

    lam = tmp_path / "lam.cu"
    lam.write_text("__global__ void k(float* a) { auto f = [&](int i) { a[i] = 1.f; }; f(threadIdx.x); }\n")
    for command in ("lint", "analyze"):
        assert main([command, str(lam)]) in (0, 1)  # the default skips the lambda
        capsys.readouterr()
        assert main([command, "--strict", str(lam)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "lam.cu: line 1: unhandled expression `lambda_expression`" in err[0]


def test_a_launching_cpp_included_by_main_takes_the_block_size_main_defines(tmp_path):
    # sss: main.cu defines BLOCK_SIZE and includes Moves.cpp (listed before main.cu), which includes
    # kernels.cu and launches with BLOCK_SIZE; a one-warp block has no other warp to race with, two warps do
    def shared_races(block_size):
        folder = tmp_path / str(block_size)
        folder.mkdir()
        (folder / "kernels.cu").write_text(
            "__global__ void k(int* out) {\n  __shared__ int count;\n  if (threadIdx.x == 0) count = 0;\n"
            "  for (int i = 0; i < 4; i++) {\n    if (threadIdx.x == 0) count++;\n    if (count > 1) break;\n"
            "  }\n  out[threadIdx.x] = count;\n}\n")
        (folder / "Moves.cpp").write_text('#include "kernels.cu"\nvoid go(int* p) { k<<<8, BLOCK_SIZE>>>(p); }\n')
        (folder / "main.cu").write_text(f'#define BLOCK_SIZE {block_size}\n#include "Moves.cpp"\n'
                                        "int main() { go(0); }\n")
        linted = lint_one(str(folder / "kernels.cu"), Options(resources="estimate"), ["CP404"])
        return [f.message for f in linted.findings]

    assert shared_races(32) == []
    fired = shared_races(64)
    assert fired and all("guessed" not in m for m in fired)


def test_a_launch_sized_at_run_time_is_named_in_the_guess(tmp_path):
    """is-cuda's `k<<<blocks, threads>>>` with both read from argv: the block is still a guess, but the
    message points at the launch the user can read instead of saying none exists."""
    (tmp_path / "kernels.h").write_text(
        "__global__ void k(float* a) {\n    __shared__ float s[1024];\n    s[0] = a[threadIdx.x];\n"
        "    a[threadIdx.x] = s[1];\n}\n")
    (tmp_path / "main.cu").write_text('#include <cstdlib>\n#include "kernels.h"\n'
                                      "int main(int argc, char** argv) {\n    int threads = atoi(argv[1]);\n"
                                      "    k<<<threads, threads>>>(0);\n}\n")
    report = analyze_file(tmp_path / "kernels.h", Options(resources="estimate"))
    assert report.kernels[0].launch.host_site == "main.cu:5"
    messages = [f.message for f in lint_file(report, select(["shared-race"]), (tmp_path / "kernels.h").read_text())]
    assert messages and all("the launch at main.cu:5 sizes it at run time" in m for m in messages)


def test_an_argument_passed_as_the_launchs_own_grid_size_follows_the_guess(tmp_path):
    """is-cuda's rank kernels split MAX_KEY keys over `number_of_blocks`, which the host passes as the
    grid size it launches with (`k<<<nb, t>>>(..., nb)`, both from argv).  Under a guessed grid the
    argument must be that guess, not an unrelated made-up value under which block ranges overlap."""
    (tmp_path / "kernels.h").write_text(
        "#define MAX_KEY 2048\n__global__ void k(int* destiny, int number_of_blocks) {\n"
        "    int factor = MAX_KEY / number_of_blocks;\n    int start = factor * blockIdx.x;\n"
        "    for (int i = start; i < start + factor; i += blockDim.x) destiny[i + threadIdx.x] = i;\n}\n")
    (tmp_path / "main.cu").write_text('#include <cstdlib>\n#include "kernels.h"\n'
                                      "int main(int argc, char** argv) {\n    int t = atoi(argv[1]);\n"
                                      "    int nb = MAX_KEY / t;\n    k<<<nb, t>>>(0, nb);\n}\n")
    report = analyze_file(tmp_path / "kernels.h", Options(resources="estimate"))
    launch = report.kernels[0].launch
    assert launch.args["number_of_blocks"] == launch.grid[0]
    assert not lint_file(report, select(["global-race"]), (tmp_path / "kernels.h").read_text())
