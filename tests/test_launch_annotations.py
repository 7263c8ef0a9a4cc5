"""A launch written at the top of a kernel file in GPUVerify's header convention
(`//--blockDim=64 --gridDim=4 -DN=8`): files of kernels without host code say how they run, and
the rules judge that launch, not a guess.  The user's --grid/--block/-D still win."""

from __future__ import annotations

from cudaperf.analysis.analyzer import Options, analyze_file, analyze_source
from cudaperf.lint.rules import REGISTRY
from cudaperf.lint.run import lint_one

GUARDED_BARRIER = """{header}
__global__ void k(float *p) {{
    __shared__ float s[64];
    if (threadIdx.x < 64) {{
        s[threadIdx.x] = p[threadIdx.x];
        __syncthreads();
        p[threadIdx.x] = s[63 - threadIdx.x];
    }}
}}
"""


def _rules(tmp_path, code: str, options: Options | None = None) -> list[str]:
    path = tmp_path / "k.cu"
    path.write_text(code)
    result = lint_one(str(path), options or Options(resources="estimate"), list(REGISTRY))
    assert result.error is None
    return [f.name for f in result.findings]


def test_the_header_gives_grid_block_and_their_source():
    code = "//pass\n//--blockDim=[32,2] --gridDim=4 --no-inline\n\n" \
           "__global__ void k(float *p) { p[threadIdx.x] = 1.f; }\n"
    (kernel,) = analyze_source(code, "k.cu", Options(resources="estimate")).kernels
    assert (kernel.launch.grid, kernel.launch.block) == ((4, 1, 1), (32, 2, 1))
    assert kernel.launch.source == "annotation" and kernel.launch.guessed == ()


def test_a_barrier_under_a_bound_the_whole_block_passes_is_clean_only_at_that_block(tmp_path):
    assert "barrier-divergence" not in _rules(tmp_path, GUARDED_BARRIER.format(header="//--blockDim=64 --gridDim=8"))
    assert "barrier-divergence" in _rules(tmp_path, GUARDED_BARRIER.format(header="//--blockDim=128 --gridDim=8"))


def test_the_command_line_wins_over_the_header(tmp_path):
    code = GUARDED_BARRIER.format(header="//--blockDim=64 --gridDim=8")
    assert "barrier-divergence" in _rules(tmp_path, code, Options(resources="estimate", block=(128, 1, 1)))
    path = tmp_path / "k.cu"
    (kernel,) = analyze_file(path, Options(resources="estimate", block=(128, 1, 1))).kernels
    assert kernel.launch.grid == (8, 1, 1) and kernel.launch.source == "cli"


def test_defines_in_the_header_reach_the_macros(tmp_path):
    code = "//--blockDim=256 --gridDim=1 -DSTRIDE={}\n" \
           "__global__ void k(float *p) {{ p[threadIdx.x * STRIDE] = 1.f; }}\n"
    assert "uncoalesced-access" not in _rules(tmp_path, code.format(1))
    assert "uncoalesced-access" in _rules(tmp_path, code.format(32))


def test_an_impossible_header_is_a_warning_and_the_launch_a_guess():
    code = "//--blockDim=2048 --gridDim=1\n__global__ void k(float *p) { p[threadIdx.x] = 1.f; }\n"
    report = analyze_source(code, "k.cu", Options(resources="estimate"))
    assert [d.message for d in report.diagnostics] == \
        ["launch annotation ignored: block (2048, 1, 1) exceeds 1024 threads per block (or 64 in z)"]
    assert report.kernels[0].launch.guessed == ("grid", "block")


def test_sizes_in_a_comment_below_the_code_are_not_an_annotation():
    code = "__global__ void k(float *p) { p[threadIdx.x] = 1.f; }\n//--blockDim=64 --gridDim=2\n"
    assert analyze_source(code, "k.cu", Options(resources="estimate")).kernels[0].launch.source == "default"
