"""Divergent synchronisation on a scalar argument nobody gave (issue 14): a split that shows only
while the made-up value is below a block's width is no finding.  `if (tid >= C) return;` before
full-mask shuffles, with C a row length the host sets wider than any block (HeCBench
softmax-online), beside the classic bounds check on a global index, which splits the last block
for any large n that is not a multiple of the block.  Regression checks, not a held-out measurement."""

from __future__ import annotations

import pytest

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

GUESSED = Options(resources="estimate")  # no --grid, --block or --arg, and no host launch

SHUFFLE = """
__global__ void k(float* out, const float* x, int C) {
    int tid = INDEX;
    if (tid >= C) return;
    float v = x[tid];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    out[tid] = v;
}"""

BARRIER = """
__global__ void k(float* out, const float* x, int n) {
    __shared__ float s[256];
    int tid = INDEX;
    if (tid >= n) return;
    s[threadIdx.x] = x[tid];
    __syncthreads();
    out[tid] = s[255 - threadIdx.x];
}"""


def _fired(source: str, options: Options = GUESSED) -> set[str]:
    report = analyze_source(source, "k.cu", options)
    return {f.name for f in lint_file(report, select(["CP401", "CP407"]), source)}


@pytest.mark.parametrize("source, rule", [(SHUFFLE, "divergent-full-mask"), (BARRIER, "barrier-divergence")])
def test_a_thread_index_against_a_made_up_argument_is_silent_and_a_global_index_fires(source, rule):
    assert rule not in _fired(source.replace("INDEX", "threadIdx.x"))
    assert rule in _fired(source.replace("INDEX", "blockIdx.x * blockDim.x + threadIdx.x"))


@pytest.mark.parametrize("source, rule", [(SHUFFLE, "divergent-full-mask"), (BARRIER, "barrier-divergence")])
def test_an_argument_the_user_gives_below_the_block_still_splits_it(source, rule):
    given = Options(grid=(4, 1, 1), block=(256, 1, 1), args={"C": 100, "n": 100}, resources="estimate")
    assert rule in _fired(source.replace("INDEX", "threadIdx.x"), given)


def test_a_two_dimensional_bounds_check_under_a_guessed_grid_still_fires():
    source = """
__global__ void k(float* out, const float* x, int width, int height) {
    __shared__ float s[16][16];
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col >= width || row >= height) return;
    s[threadIdx.y][threadIdx.x] = x[row * width + col];
    __syncthreads();
    out[row * width + col] = s[threadIdx.x][threadIdx.y];
}"""
    assert "barrier-divergence" in _fired(source)


UNIFORM_ADD = """
__global__ void add(int* data, const int* sums, int len) {
    __shared__ int buf;
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id > len) return;
    if (threadIdx.x == 0) buf = sums[blockIdx.x];
    __syncthreads();
    data[id] += buf;
}
int main() {
    const int n = LEN;
    int *d, *s;
    add<<<(n + 255) / 256, 256>>>(d, s, n);
    return 0;
}"""


def test_an_argument_the_host_fixes_decides_the_split_as_launched():
    """cuda-samples shfl_scan (`id > len`, launched with len = 65536 and ids up to 65535): no
    block splits; with len = 65000 the last block does."""
    assert "barrier-divergence" not in _fired(UNIFORM_ADD.replace("LEN", "65536"))
    assert "barrier-divergence" in _fired(UNIFORM_ADD.replace("LEN", "65000"))


def test_an_argument_of_a_kernel_launched_twice_stays_any_value():
    second = "    add<<<255, 256>>>(d, s, n / 3);\n    return 0;"
    twice = UNIFORM_ADD.replace("LEN", "65536").replace("    return 0;", second)
    assert "barrier-divergence" in _fired(twice)


RUN_TIME_BLOCK = SHUFFLE.replace("INDEX", "threadIdx.x") + """
#include <cstdlib>
int main(int argc, char** argv) {
    const int C = ROW;
    const int threads = atoi(argv[1]);
    float *out, *x;
    k<<<8192 * 32 / threads, threads>>>(out, x, C);
}"""


@pytest.mark.parametrize("row, fires", [(50257, False), (100, True)])
def test_an_argument_the_host_fixes_under_a_run_time_block_is_judged_at_its_value(row, fires):
    """HeCBench softmax-online: `if (tid >= C) return;` before full-mask shuffles, C the vocabulary
    size (50257) and the block read at run time, so the block is a guess: no thread of any block
    leaves.  A row of 100 splits every block wider than 100."""
    assert ("divergent-full-mask" in _fired(RUN_TIME_BLOCK.replace("ROW", str(row)))) is fires


GRID_STRIDE = """
__global__ void butterfly(float* data, int n) {
    __shared__ float x[128];
    int lane = threadIdx.x & 31, base = threadIdx.x & ~31;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        x[threadIdx.x] = data[i];
        __syncwarp();
        data[i] += x[base + (lane ^ 16)];
        __syncwarp();
    }
    x[threadIdx.x] = 0.f;  // lanes that leave the loop stay (lanes that exit would not count: issue 26)
}
int main() { butterfly<<<4, 128>>>(0, N); }
"""


@pytest.mark.parametrize("n, fires", [(5120, False), (5000, True)])
def test_a_grid_stride_loop_over_a_fixed_count_is_judged_at_that_count(n, fires):
    """A written-without-the-linter suite's warp butterfly: 512 threads over n = 5120 run 10 trips
    each, so the __syncwarp in the loop is reached by whole warps; over 5000 the last trip splits a
    warp.  The same holds with the count given on the command line."""
    source = GRID_STRIDE.replace("N)", f"{n})")
    report = analyze_source(source, "k.cu", Options(resources="estimate"))
    assert bool(lint_file(report, select(["divergent-full-mask"]), source)) is fires
    given = Options(resources="estimate", grid=(4, 1, 1), block=(128, 1, 1), args={"n": n})
    kernel_only = source.split("int main")[0]
    report = analyze_source(kernel_only, "k.cu", given)
    assert bool(lint_file(report, select(["divergent-full-mask"]), kernel_only)) is fires


def test_a_struct_passed_by_value_is_not_given_a_made_up_number():
    """A struct argument's fields are values of their own (opaque, one per launch): the analyzer lists no
    default for the struct itself, so an estimate over it is not marked as resting on a made-up value,
    while a plain integer argument beside it still gets one."""
    code = """struct P { float a; long long n; };
__global__ void k(const float* x, float* y, P p, int m) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x) y[i] = p.a * x[i];
}"""
    launch = analyze_source(code, "k.cu", GUESSED).kernels[0].to_json()["launch"]
    assert launch["args"] == {"m": {"value": 1024, "source": "default"}}
