"""Issue 29: the build's flags from compile_commands.json (-p, --compile-commands, discovery), for both
frontends, and the libclang frontend (skipped without libclang)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import clang_or_skip

from cudaperf.analysis import compdb
from cudaperf.analysis.analyzer import Options, analyze_file

# A CMake CUDA project: block size and element type come only from -D flags in the compile database,
# SCALE from a header reached only through the include path CMake puts in a response file.
KERNEL = """\
// block size and element type come only from the build's -D flags
#include <config.h>

__global__ void column(const T* in, T* out, int n) {
    __shared__ T tile[BLOCK * BLOCK];
    int c = threadIdx.x;
    tile[c * BLOCK] = in[blockIdx.x * BLOCK + c];
    __syncthreads();
    out[blockIdx.x * BLOCK + c] = tile[c * SCALE];
}

void launch(const T* in, T* out, int n) { column<<<n / BLOCK, BLOCK>>>(in, out, n); }
"""


def cmake_project(root: Path, defines: str, rsp: bool = True) -> Path:
    """What CMAKE_EXPORT_COMPILE_COMMANDS writes for a CUDA target built with nvcc (Ninja: the
    include directories in includes_CUDA.rsp)."""
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "include").mkdir(exist_ok=True)
    (root / "src" / "column.cu").write_text(KERNEL)
    (root / "include" / "config.h").write_text("#pragma once\n#define SCALE BLOCK\n")
    build = root / "build"
    (build / "CMakeFiles" / "app.dir").mkdir(parents=True, exist_ok=True)
    includes = f"-I{root / 'include'}"
    if rsp:
        (build / "CMakeFiles" / "app.dir" / "includes_CUDA.rsp").write_text(includes + "\n")
        includes = "--options-file CMakeFiles/app.dir/includes_CUDA.rsp"
    command = (f"/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler {defines} {includes} -O3 -DNDEBUG "
               f"-std=c++17 \"--generate-code=arch=compute_90,code=[compute_90,sm_90]\" -x cu "
               f"-c {root / 'src' / 'column.cu'} -o CMakeFiles/app.dir/src/column.cu.o")
    (build / "compile_commands.json").write_text(json.dumps([{
        "directory": str(build), "command": command, "file": str(root / "src" / "column.cu"),
        "output": "CMakeFiles/app.dir/src/column.cu.o"}], indent=2))
    return build


def lint(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cudaperf", "lint", "--format", "concise", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=120)


# ---------------------------------------------------------------- the database reader

def test_cmake_nvcc_command_is_read_with_its_response_file(tmp_path):
    build = cmake_project(tmp_path, "-DBLOCK=32 -DT=float")
    flags = compdb.load(build).flags_for(tmp_path / "src" / "column.cu")
    assert flags.defines == {"BLOCK": "32", "T": "float", "NDEBUG": "1"}
    assert flags.include_dirs == (str(tmp_path / "include"),)
    assert flags.std == "c++17" and flags.arch == "sm_90"


def test_arguments_lists_clang_spellings_and_undefines(tmp_path):
    entry = {"directory": str(tmp_path), "file": "k.cu",
             "arguments": ["clang++", "-x", "cuda", "--cuda-gpu-arch=sm_80", "-D", "A=1", "-DB", "-UB", "-Iinc",
                           "-isystem", "/opt/sys", "-std=gnu++20", "-c", "k.cu"]}
    (tmp_path / "compile_commands.json").write_text(json.dumps([entry]))
    flags = compdb.load(tmp_path).flags_for(tmp_path / "k.cu")
    assert flags.defines == {"A": "1"} and flags.undefines == ("B",)
    assert flags.include_dirs == (str(tmp_path / "inc"),) and flags.system_include_dirs == ("/opt/sys",)
    assert flags.std == "c++20" and flags.arch == "sm_80"


def test_a_header_takes_the_flags_of_the_nearest_entry(tmp_path):
    build = cmake_project(tmp_path, "-DBLOCK=16 -DT=float")
    header = tmp_path / "src" / "column.cuh"
    header.write_text("")
    assert compdb.load(build).flags_for(header).defines["BLOCK"] == "16"


def test_discovery_up_the_tree_and_in_build(tmp_path):
    cmake_project(tmp_path, "-DBLOCK=32 -DT=float")
    assert compdb.discover(tmp_path / "src" / "column.cu") == (tmp_path / "build" / "compile_commands.json").resolve()
    assert compdb.discover(Path("/")) is None or True  # the root has nothing above it; must not raise


def test_bad_database_is_one_line_usage_error(tmp_path):
    (tmp_path / "compile_commands.json").write_text("{not json")
    (tmp_path / "k.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 0; }\n")
    proc = lint("-p", str(tmp_path), str(tmp_path / "k.cu"))
    assert proc.returncode == 2 and "not a JSON compile database" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


# ---------------------------------------------------------------- verdicts the flags imply (tree-sitter)

def bank_findings(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if "CP102" in line]


def test_lint_p_verdict_follows_the_block_size_in_the_database(tmp_path):
    conflicted = cmake_project(tmp_path / "a", "-DBLOCK=32 -DT=float")
    padded = cmake_project(tmp_path / "b", "-DBLOCK=33 -DT=float")
    first = lint("-p", str(conflicted), str(tmp_path / "a" / "src" / "column.cu"))
    second = lint("-p", str(padded), str(tmp_path / "b" / "src" / "column.cu"))
    assert any(":7:" in line and "32.0-way" in line for line in bank_findings(first.stdout)), first.stdout
    assert bank_findings(second.stdout) == [], second.stdout


def test_element_type_and_launch_come_from_the_database(tmp_path):
    build = cmake_project(tmp_path, "-DBLOCK=64 -DT=double")
    report = analyze_file(tmp_path / "src" / "column.cu", Options(compile_commands=str(build / "compile_commands.json"),
                                                                  analyses=None))
    kernel = report.kernels[0]
    assert kernel.launch.block == (64, 1, 1)
    loads = [a for a in kernel.accesses if a.access.space == "global"]
    assert loads and all(a.access.size == 8 for a in loads)


def test_without_a_database_the_flags_are_unknown(tmp_path):
    cmake_project(tmp_path, "-DBLOCK=64 -DT=double")
    report = analyze_file(tmp_path / "src" / "column.cu", Options())  # the API does not search by default
    kernel = report.kernels[0]
    assert kernel.launch.block != (64, 1, 1)


def test_cli_discovers_the_database(tmp_path):
    cmake_project(tmp_path, "-DBLOCK=32 -DT=float")
    proc = lint(str(tmp_path / "src" / "column.cu"))
    assert bank_findings(proc.stdout), proc.stdout + proc.stderr


# ---------------------------------------------------------------- the clang frontend

def test_frontend_clang_without_libclang_is_one_line(tmp_path, monkeypatch):
    (tmp_path / "k.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 0; }\n")
    code = ("import sys; sys.modules['clang'] = None; sys.modules['clang.cindex'] = None\n"
            "from cudaperf.cli import main\n"
            f"sys.exit(main(['lint', '--frontend', 'clang', {str(tmp_path / 'k.cu')!r}]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == "cudaperf: error: --frontend clang needs libclang (pip install 'cudaperf[clang]')"


def test_clang_reads_a_macro_only_the_include_path_reaches(tmp_path):
    clang_or_skip()
    build = cmake_project(tmp_path, "-DBLOCK=32 -DT=float")
    source = str(tmp_path / "src" / "column.cu")
    tree = lint("-p", str(build), "--frontend", "tree-sitter", source)
    precise = lint("-p", str(build), "--frontend", "clang", source)
    # `tile[c * SCALE]`: SCALE is defined in <config.h>, which tree-sitter does not follow
    assert not any(":9:" in line for line in bank_findings(tree.stdout)), tree.stdout
    assert any(":9:" in line and "32.0-way" in line for line in bank_findings(precise.stdout)), precise.stdout
    padded = cmake_project(tmp_path / "padded", "-DBLOCK=33 -DT=float")
    assert bank_findings(lint("-p", str(padded), "--frontend", "clang",
                              str(tmp_path / "padded" / "src" / "column.cu")).stdout) == []


HEADER_TYPES = """\
#pragma once
#ifdef USE_DOUBLE
typedef double real;
#else
typedef float real;
#endif
enum { TILE = 8, HALF = TILE / 2 };
constexpr int STRIDE = HALF * 4;   // 16
struct Pair { real a; int b; };
"""

TYPES_KERNEL = """\
#include "types.h"
__global__ void k(real* x, Pair* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i * STRIDE] = p[i].a;
}
"""


@pytest.mark.parametrize("use_double", [False, True])
def test_clang_resolves_the_typedef_the_define_selects(tmp_path, use_double):
    clang_or_skip()
    (tmp_path / "types.h").write_text(HEADER_TYPES)
    (tmp_path / "k.cu").write_text(TYPES_KERNEL)
    defines = {"USE_DOUBLE": "1"} if use_double else {}
    report = analyze_file(tmp_path / "k.cu", Options(frontend="clang", defines=defines, block=(128, 1, 1)))
    assert not [d for d in report.diagnostics if "clang frontend" in d.message], report.diagnostics
    accesses = report.kernels[0].accesses
    store = next(a for a in accesses if a.access.kind == "store")
    assert store.access.size == (8 if use_double else 4)
    assert store.pattern == "strided"
    assert "16" in str(store.access.offset)  # STRIDE, through an enum and a constexpr, evaluated by clang
    pair = next(a for a in accesses if a.access.array == "p")
    assert "16" in str(pair.access.offset) if use_double else "8" in str(pair.access.offset)  # sizeof(Pair)


def test_tree_sitter_keeps_the_first_arm(tmp_path):
    (tmp_path / "types.h").write_text(HEADER_TYPES)
    (tmp_path / "k.cu").write_text(TYPES_KERNEL)
    report = analyze_file(tmp_path / "k.cu", Options(defines={}, block=(128, 1, 1)))
    store = next(a for a in report.kernels[0].accesses if a.access.kind == "store")
    assert store.pattern == "unknown" or store.access.size == 8  # what the clang frontend fixes


def test_clang_failure_falls_back_with_a_note(tmp_path):
    clang_or_skip()
    from cudaperf.analysis import clangfront
    path = tmp_path / "k.cu"
    path.write_text("__global__ void k(float* x) { x[threadIdx.x] = 0; }\n")
    source = __import__("cudaperf.analysis.source", fromlist=["read"]).read(path)
    notes = clangfront.attach(source, path, Options(std="c++99-not-a-standard"), tree_kernels=1)
    assert notes and "analysed with tree-sitter" in notes[0].message
    assert source.facts is None


def test_auto_picks_clang_only_with_headers_or_a_database(tmp_path):
    clang_or_skip()
    from cudaperf.analysis.frontend import wants_clang
    plain = tmp_path / "plain.cu"
    plain.write_text("__global__ void k(float* x) { x[threadIdx.x] = 0; }\n")
    with_header = tmp_path / "h.cu"
    with_header.write_text('#include "types.h"\n' + TYPES_KERNEL)
    auto = Options(frontend="auto")
    assert not wants_clang(auto, plain, None)
    assert wants_clang(auto, with_header, None)
    assert wants_clang(auto, plain, compdb.Flags())
    assert not wants_clang(Options(), with_header, compdb.Flags())


def test_clang_args_carry_the_database_flags(tmp_path):
    clang_or_skip()
    from cudaperf.analysis.clangfront import SHIM_DIR, compile_args
    build = cmake_project(tmp_path, "-DBLOCK=32 -DT=float")
    options, flags = compdb.apply(Options(compile_commands=str(build)), tmp_path / "src" / "column.cu")
    args = compile_args(options, tmp_path / "src" / "column.cu", flags is not None)
    assert "-DBLOCK=32" in args and "-DT=float" in args and f"-I{tmp_path / 'include'}" in args
    assert args[-1] == f"-idirafter{SHIM_DIR}"  # the toolkit's libraries' shims: searched after everything
    assert "-std=c++17" in args and not any(a.startswith("-idirafter") and "resource" not in a for a in args[:-1])
    assert shlex.join(args)  # plain strings


# HeCBench degrid's shape: the kernel's element type is a template parameter, bound only where a host
# function template that launches it is called with arrays of a type a -D flag selects through macros
DEGRID_HEADER = """\
#define PASTER(x) x ## 2
#define EVALUATOR(x) PASTER(x)
#define PRECISION2 EVALUATOR(PRECISION)
"""

DEGRID_KERNELS = """\
template <typename CmplxType>
__global__ void scale2(CmplxType* __restrict out, const CmplxType* __restrict in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { out[i].x = 2.0f * in[i].x; out[i].y = in[i].y; }
}

template <typename CmplxType>
void run(CmplxType* out, CmplxType* in, int n) {
  CmplxType *d_out, *d_in;
  cudaMalloc((void**)&d_out, n * sizeof(CmplxType));
  cudaMalloc((void**)&d_in, n * sizeof(CmplxType));
  scale2<<<n / 256, 256>>>(d_out, d_in, n);
  cudaFree(d_out);
}
"""

DEGRID_MAIN = """\
#include <cuda.h>
#include "degrid.h"
#include "kernels.cu"
int main() {
  PRECISION2 *out = 0, *in = 0;
  run(out, in, 1 << 20);
}
"""


def test_clang_binds_a_kernel_template_through_the_host_template_that_launches_it(tmp_path):
    clang_or_skip()
    (tmp_path / "degrid.h").write_text(DEGRID_HEADER)
    (tmp_path / "kernels.cu").write_text(DEGRID_KERNELS)
    (tmp_path / "main.cu").write_text(DEGRID_MAIN)
    sizes = {}
    for precision in ("float", "double"):
        report = analyze_file(tmp_path / "kernels.cu", Options(frontend="clang", defines={"PRECISION": precision},
                                                               resources="estimate"))
        accesses = report.kernels[0].accesses
        sizes[precision] = {a.access.size for a in accesses}
        assert {a.access.type_name for a in accesses} == {precision}, accesses
    assert sizes == {"float": {4}, "double": {8}}
    tree = analyze_file(tmp_path / "kernels.cu", Options(defines={"PRECISION": "double"}, resources="estimate"))
    assert {a.access.type_name for a in tree.kernels[0].accesses} != {"double"}  # tree-sitter cannot bind it


MACRO_CALL = """\
#define BENCHMARK(N) benchmark(d, N)
__global__ void k(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }
void benchmark(float* d, const int num) { k<<<num / 256, 256>>>(d, num); }
int main() { float* d = 0; BENCHMARK(4096); BENCHMARK(4096); }
"""


def test_a_host_function_called_through_a_macro_passes_its_arguments(tmp_path):
    """hexciton's `BENCHMARK(...)`: the calls a macro makes are calls, so the launch inside
    `benchmark` sees the constant every call passes instead of a guessed grid (both frontends)."""
    (tmp_path / "k.cu").write_text(MACRO_CALL)
    kernel = analyze_file(tmp_path / "k.cu", Options(resources="estimate")).kernels[0]
    assert kernel.launch.grid == (16, 1, 1) and "grid" not in kernel.launch.guessed


EXPLICIT_IN_HOST_TEMPLATE = """\
template <class TData>
__global__ void copy(TData* out, const TData* in) { out[threadIdx.x] = in[threadIdx.x]; }
template <class T>
void run(T* out, T* in) { copy<T><<<1, 128>>>(out, in); }
int main() { double *a = 0, *b = 0; run<double>(a, b); }
"""


def test_clang_resolves_k_of_t_launched_in_a_host_template(tmp_path):
    """`copy<T><<<...>>>` inside `run<T>`: tree-sitter sees the name `T`, clang the instance `double`."""
    clang_or_skip()
    (tmp_path / "k.cu").write_text(EXPLICIT_IN_HOST_TEMPLATE)
    precise = analyze_file(tmp_path / "k.cu", Options(frontend="clang", resources="estimate")).kernels[0]
    assert {a.access.size for a in precise.accesses} == {8}
    tree = analyze_file(tmp_path / "k.cu", Options(resources="estimate")).kernels[0]
    assert {a.access.type_name for a in tree.accesses} == {"?"}


# ---------------------------------------------------------------- the published figures

def frontend_phrases(figures: dict) -> list[str]:
    """What docs/architecture.md says from tests/data/cpu/frontends.json (benchmarks/frontends.py)."""
    shares, times, before = figures["resolved_share"], figures["seconds_per_file"], figures["before_issue_29"]
    libclang = times["libclang"]
    return [
        f"{figures['files']:,} files (every {figures['every']}rd file of HeCBench and cuda-samples), "
        f"{figures['kernels']:,} kernels",
        f"every access resolved: {before['resolved_share']:.1%} before issue 29 (tree-sitter), "
        f"{shares['tree-sitter']:.1%} with tree-sitter now, {shares['clang']:.1%} with clang",
        f"libclang's parse and facts: {libclang['median']:.2f} s of CPU a file (median; mean {libclang['mean']:.2f} s, "
        f"max {libclang['max']:.1f} s)",
        f"{figures['clang_resolved_assumed']} of the kernels clang resolves are analysed under assumed template "
        f"arguments",
        *(f"{cause}: {count}" for cause, count in figures["clang_unresolved_causes"].items()),
        f"tree-sitter's whole analysis {times['tree-sitter']['median']:.2f} s (median), clang's "
        f"{times['clang']['median']:.2f} s",
        f"{len(figures['fell_back'])} files clang could not use (analysed with tree-sitter, with a note)",
        f"{figures['kernels_differing']} kernels differ between the frontends",
    ]


def test_published_frontend_figures():
    from conftest import ROOT, says

    figures = json.loads((ROOT / "tests" / "data" / "cpu" / "frontends.json").read_text())
    assert figures["kernels"] > 0 and 0 <= figures["resolved_share"]["clang"] <= 1
    says("docs/architecture.md", *frontend_phrases(figures))
