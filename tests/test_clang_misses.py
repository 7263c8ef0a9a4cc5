"""Issue 29, the held-out third's misses: what the clang frontend (and the lowering both frontends share)
left unresolved there, each on a minimal kernel: project headers only a build's -I would find, CUB's
TempStorage passed to its collective, a loop macro whose range does not parse as a declaration, a local
enum."""

from __future__ import annotations

import pytest
from conftest import analyze_with_clang, diagnostic_text

from cudaperf.analysis.analyzer import Options, analyze_file

pytestmark = pytest.mark.usefixtures("libclang")


def test_headers_beside_below_and_in_sibling_directories_are_found_without_a_database(tmp_path):
    """miniFE's shape: `src/` includes <TypeTraits.hpp> from `utils/` (the Makefile's -I../utils), and
    <near.h> sits beside the file, reached with angle brackets."""
    (tmp_path / "proj" / "src").mkdir(parents=True)
    (tmp_path / "proj" / "utils").mkdir()
    (tmp_path / "proj" / "utils" / "TypeTraits.hpp").write_text("#pragma once\ntypedef double magnitude_t;\n")
    (tmp_path / "proj" / "src" / "near.h").write_text("#pragma once\n#define STRIDE 4\n")
    kernel = tmp_path / "proj" / "src" / "k.cu"
    kernel.write_text("#include <TypeTraits.hpp>\n#include <near.h>\n"
                      "__global__ void k(magnitude_t* x) { x[threadIdx.x * STRIDE] = 0; }\n")
    report = analyze_with_clang(kernel)
    assert "headers not found" not in diagnostic_text(report)
    access = report.kernels[0].accesses[0]
    assert (access.access.size, access.pattern) == (8, "strided")


def test_a_crowded_parent_is_not_searched(tmp_path):
    """A directory holding many programs (HeCBench's src/) lends none of them its neighbours' headers."""
    from cudaperf.analysis.clangfront import MAX_NEARBY_DIRS, guessed_include_dirs

    for i in range(MAX_NEARBY_DIRS + 1):
        (tmp_path / "src" / f"p{i}-cuda" / "inc").mkdir(parents=True)
    here = tmp_path / "src" / "p0-cuda"
    found = guessed_include_dirs(here)
    assert found[:2] == [here, here / "inc"]
    assert tmp_path / "src" / "p1-cuda" not in found


TEMP_STORAGE = """\
#include <cub/cub.cuh>
__global__ void red(const float* in, float* out) {
  typedef cub::BlockReduce<float, 256> BlockReduce;
  typedef cub::WarpReduce<float> WarpReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  __shared__ typename WarpReduce::TempStorage warps[8];
  float v = in[blockIdx.x * 256 + threadIdx.x];
  float s = BlockReduce(temp).Sum(v) + WarpReduce(warps[threadIdx.x / 32]).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
"""


def test_cub_temp_storage_passed_to_its_collective_is_no_access_of_unknown_type(tmp_path):
    """The storage goes by reference to the collective: no load of an unknown type (it was one, in both
    frontends), but the callee may touch the shared memory, which is recorded as such."""
    from cudaperf.analysis.ir import OpaqueMemory, walk

    (tmp_path / "k.cu").write_text(TEMP_STORAGE)
    for options in (Options(frontend="clang", resources="estimate"), Options(resources="estimate")):
        kernel = analyze_file(tmp_path / "k.cu", options).kernels[0]
        assert [(a.access.array, a.access.type_name) for a in kernel.accesses] == [("in", "float"), ("out", "float")]
        opaque = {(s.line, s.space) for s, _ in walk(kernel.kernel.body) if isinstance(s, OpaqueMemory)}
        assert (8, "shared") in opaque


LOOP_MACRO = """\
#define KERNEL_LOOP(index, range) \\
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < (range); index += blockDim.x * gridDim.x)
__global__ void mask(int B, int N, int M, const float* in, float* out) {
  if (B >= 0) {
    KERNEL_LOOP(index, B * N * M) {
      out[index] = in[index];
    }
  }
}
"""


def test_a_loop_macro_whose_range_is_no_declaration_is_lowered_as_its_loop(tmp_path):
    """mask-cuda's shape: `B * N * M` does not parse as a parameter, so the grammar reads a call missing
    its `;` and then a block; the loop variable was a name nothing declares, in both frontends."""
    (tmp_path / "k.cu").write_text(LOOP_MACRO)
    for options in (Options(frontend="clang", resources="estimate"), Options(resources="estimate")):
        report = analyze_file(tmp_path / "k.cu", options)
        accesses = report.kernels[0].accesses
        assert [(a.access.array, a.pattern, str(a.access.offset)) for a in accesses] == \
            [("in", "coalesced", "index * 4"), ("out", "coalesced", "index * 4")]
        assert "missing" not in diagnostic_text(report)


LOCAL_ENUM = """\
__global__ void tile(float* a) {
  enum { TILE = 16, PAD };
  enum class Step : int { ONE_ROW = TILE * 2 } step = Step::ONE_ROW;
  a[blockIdx.x * (int)Step::ONE_ROW + threadIdx.x * TILE + PAD] = 0;
}
"""


def test_a_local_enums_enumerators_are_constants(tmp_path):
    """graphB+'s and rsmt's shape: an `enum` inside the kernel; its enumerators were names nothing
    declares, in both frontends (clang's constants are namespace-scope ones)."""
    (tmp_path / "k.cu").write_text(LOCAL_ENUM)
    for options in (Options(frontend="clang", resources="estimate"), Options(resources="estimate")):
        access = analyze_file(tmp_path / "k.cu", options).kernels[0].accesses[0]
        assert (str(access.access.offset), access.pattern) == \
            ("(((blockIdx.x * 32) + (threadIdx.x * 16)) + 17) * 4", "strided")  # PAD = TILE + 1
