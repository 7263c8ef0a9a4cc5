"""barrier-divergence under a bounds test on a size the host makes a multiple of a constant
(`n = k * 1024` with k read at run time): the test splits no block whose width divides that
constant, whatever k is, so the early exit is no divergence.  A multiple the block does not
divide, a wider block, or a size the host leaves unknown still splits the last block."""

from __future__ import annotations

import pytest

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

KERNEL = """
#include <cstdlib>
__global__ void tiled(const float* x, float* y, const int n) {
    __shared__ float tile[256];
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n) return;
    tile[threadIdx.x] = x[gid];
    __syncthreads();
    y[gid] = tile[255 - threadIdx.x];
}

int main(int argc, char** argv) {
    const int k = atoi(argv[1]);
    SIZE
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    tiled<<<GRID, BLOCK>>>(x, y, n);
    tiled<<<GRID, BLOCK>>>(y, x, n);
    return 0;
}
"""


def _barrier_divergence(size: str, grid: str = "(n + 255) / 256", block: str = "256") -> int:
    source = KERNEL.replace("SIZE", size).replace("GRID", grid).replace("BLOCK", block)
    report = analyze_source(source, "k.cu", Options(resources="estimate"))
    return len(lint_file(report, select(["barrier-divergence"]), source))


@pytest.mark.parametrize("size", ["const int n = k * 1024;", "const int n = (k + 255) / 256 * 256;",
                                  "const int n = k << 8;", "int m = k * 512; const int n = m;"])
def test_a_size_the_block_divides_splits_no_block(size):
    assert _barrier_divergence(size) == 0
    assert _barrier_divergence(size, grid="n / 256") == 0


@pytest.mark.parametrize("size, block", [("const int n = k * 100;", "256"), ("const int n = k;", "256"),
                                         ("const int n = k * 256;", "512")])
def test_a_size_the_block_does_not_divide_still_splits_the_last_block(size, block):
    assert _barrier_divergence(size, block=block) == 1


STRIDED = """
#include <cstdlib>
template <int THREADS>
__global__ void strided(const float* x, float* y, const int n) {
    __shared__ float tile[THREADS];
    for (int i = threadIdx.x; i < n; i += THREADS) {
        tile[threadIdx.x] = x[i];
        __syncthreads();
        y[i] = tile[THREADS - 1 - threadIdx.x];
        __syncthreads();
    }
}

void run(const float* x, float* y, int n) {
    const int threads = 256;
    strided<threads><<<1, threads>>>(x, y, n);
}

int main(int argc, char** argv) {
    int n = atoi(argv[1]);
    SIZE
    float *x, *y;
    run(x, y, n);
    run(y, x, n);
    return 0;
}
"""


@pytest.mark.parametrize("size, found", [("n *= 1024;", 0), ("n = (n + 255) / 256 * 256;", 0),
                                         ("n *= 100;", 2), ("", 2)])
def test_a_block_stride_loop_over_a_callers_multiple(size, found):
    """The size reaches the launch through a host function's parameter (every call passes a
    multiple of 1024, or not) and the stride through a template argument that is a constant of
    that function: the loop runs as many trips in every thread only when the block divides it."""
    source = STRIDED.replace("SIZE", size)
    report = analyze_source(source, "k.cu", Options(resources="estimate"))
    assert len(lint_file(report, select(["barrier-divergence"]), source)) == found


def test_a_test_whole_warps_agree_on_that_splits_no_block():
    """`threadIdx.x / 128 + blockIdx.x < 1023` with blocks of 128 threads: the same in every thread
    of a block (the last blocks leave whole); with blocks of 256 the halves of block 511 disagree."""
    source = """
__global__ void per_block(float* y) {
    __shared__ float s[256];
    int position = threadIdx.x / 128 + (blockDim.x / 128) * blockIdx.x;
    if (position < 1023) {
        s[threadIdx.x] = y[position];
        __syncthreads();
        y[position] = s[blockDim.x - 1 - threadIdx.x];
    }
}
int main() {
    float* y;
    per_block<<<1025, BLOCK>>>(y);
    return 0;
}
"""
    for block, found in (("128", 0), ("256", 1)):
        text = source.replace("BLOCK", block)
        report = analyze_source(text, "k.cu", Options(resources="estimate"))
        assert len(lint_file(report, select(["barrier-divergence"]), text)) == found


SEARCH = """
#include <cstdlib>
__global__ void search(const int* text, int* out, const int length) {
    __shared__ int counter;
    if (threadIdx.x == 0) counter = 0;
    __syncthreads();
    int position = threadIdx.x;
    while (true) {
        if (position < length && text[position] == 7) atomicAdd(&counter, 1);
        position += blockDim.x;
        __syncthreads();
        int found = counter;
        __syncthreads();
        if (found < blockDim.x && TEST < length) continue;
        if (threadIdx.x == 0) out[blockIdx.x] = found;
        __syncthreads();
        break;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = counter;
}
int main(int argc, char** argv) {
    const int length = atoi(argv[1]);
    int *text, *out;
    search<<<64, 256>>>(text, out, length);
    return 0;
}
"""


@pytest.mark.parametrize("test, found", [("(position / blockDim.x) * blockDim.x", 0), ("position", 1)])
def test_a_continue_on_a_shared_count_and_the_blocks_round(test, found):
    """`found` is one shared word read between barriers and `position / blockDim.x` is the round
    every thread of the block is in: the `continue` is the block's, not a thread's.  On `position`
    itself the last round splits the block."""
    source = SEARCH.replace("TEST", test)
    report = analyze_source(source, "k.cu", Options(resources="estimate"))
    assert len(lint_file(report, select(["barrier-divergence"]), source)) == found


RUN_WITH = """
__global__ void scale(float* x, const int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.f;
}

void run(float* x, int n, int threads) {
    scale<<<n / threads, threads>>>(x, n);
}

int main() {
    const int n = 4096;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    CALLS
    return 0;
}
"""


@pytest.mark.parametrize("calls, grid, block, n", [
    ("run(x, n, 256); run(x, n, 256);", (16, 1, 1), (256, 1, 1), 4096.0),  # every call agrees: the values
    ("run(x, n, 256); run(x, 2 * n, 256);", None, (256, 1, 1), None),     # n differs: a multiple of 4096 only
])
def test_a_launch_inside_a_host_function_sees_the_constants_every_call_passes(calls, grid, block, n):
    (kernel,) = analyze_source(RUN_WITH.replace("CALLS", calls), "k.cu", Options(resources="estimate")).kernels
    assert kernel.launch.block == block
    assert ("grid" in kernel.launch.guessed) == (grid is None)
    if grid is not None:
        assert kernel.launch.grid == grid and kernel.launch.args["n"] == n
    else:
        assert kernel.launch.args.get("n") != 4096.0
