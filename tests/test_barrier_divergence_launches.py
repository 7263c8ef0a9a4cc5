"""barrier-divergence on conditions that are the same in every thread of a block, and on launches
the analysis must find and bound (issue 14, the false findings of cuda-samples' cdpBitonicSort and
HeCBench's ss).  Each false pattern is silent beside a true twin that still fires.  Regression
checks written from those judged findings, not a held-out measurement."""

from __future__ import annotations

import numpy as np
import pytest

from cudaperf.analysis import parse
from cudaperf.analysis.analyzer import Options, analyze_file, analyze_source
from cudaperf.analysis.guards import argument_ranges
from cudaperf.analysis.symbolic import Sym, evaluate, op
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

GIVEN = Options(grid=(8, 1, 1), block=(256, 1, 1), resources="estimate")


def _lines(source: str, options: Options = GIVEN) -> set[int]:
    report = analyze_source(source, "k.cu", options)
    return {f.line for f in lint_file(report, select(["barrier-divergence"]), source)}


# ss-cuda's load-balanced search: `pos` steps by the block width from the thread's index, so
# `(pos / width) * width` is one value per block; the count is a shared word every thread reads
# after a barrier.  The twin tests `pos` itself, which splits the block holding n.
SEARCH = """
__global__ void k(const int* text, int* out, int n) {
    __shared__ unsigned count;
    int width = blockDim.x;
    int pos = threadIdx.x;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    while (true) {
        if (pos < n && text[pos] == 7) atomicAdd(&count, 1u);
        pos += width;
        __syncthreads();
        unsigned seen = count;
        __syncthreads();
        if (seen < width && TEST < n) continue;
        __syncthreads();
        if (threadIdx.x < seen) out[threadIdx.x] = pos;
        __syncthreads();
        if ((pos / width) * width >= n) break;
    }
}"""


def test_a_continue_the_whole_block_takes_is_silent_and_its_per_thread_twin_fires():
    assert not _lines(SEARCH.replace("TEST", "((pos / width) * width)"))
    assert _lines(SEARCH.replace("TEST", "pos"))


def test_a_branch_whole_warps_disagree_on_still_fires():
    source = """
__global__ void k(float* out) {
    __shared__ float s[256];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x / 32 == 0) { __syncthreads(); }
    out[threadIdx.x] = s[255 - threadIdx.x];
}"""
    assert _lines(source) == {5}


# hexciton: each row of the block works on its own chunk; where `num` ends inside a block's
# chunks, rows run different numbers of iterations.  The bound varies inside the block, so its
# warps may disagree for some `num` even though they agree at the sampled one.
CHUNKS = """
__global__ void k(float* out, const float* in, int num) {
    __shared__ float s[2][32];
    int start = blockIdx.x * 2 * 64 + threadIdx.y * 64;
    int stop = STOP;
    for (int m = start; m < stop; m += 2) {
        __syncthreads();
        s[threadIdx.y][threadIdx.x] = in[m * 32 + threadIdx.x];
        __syncthreads();
        out[m * 32 + threadIdx.x] = s[1 - threadIdx.y][threadIdx.x];
    }
}"""


def test_a_trip_count_bounded_per_row_of_the_block_fires_and_one_bounded_per_block_is_silent():
    rows = Options(grid=(8, 1, 1), block=(32, 2, 1), resources="estimate")
    assert _lines(CHUNKS.replace("STOP", "min(num, start + 64)"), rows)
    assert not _lines(CHUNKS.replace("STOP", "start + 64").replace("threadIdx.y * 64", "0"), rows)


def test_a_loop_on_data_each_thread_loads_still_fires():
    source = """
__global__ void k(long* list, int size) {
    int index = threadIdx.x;
    while ((list[index] >> 32) != -1) {
        long next = list[list[index] >> 32];
        __syncthreads();
        list[index] = next;
    }
}"""
    assert _lines(source) == {6}


# cdpBitonicSort: the block is rounded to a power of two with PTX `bfind`, and the kernel is
# launched only from another kernel, in another file, under `if (len > 1024)`.
BITONIC = """
#include "decl.h"
static __device__ unsigned highest_bit(unsigned word) {
    unsigned ret;
    asm volatile("bfind.u32 %0, %1;" : "=r"(ret) : "r"(word));
    return ret;
}
__global__ void big_sort(unsigned* data, unsigned len) {
    unsigned len2 = 1 << (highest_bit(len - 1U) + 1);
    if (threadIdx.x >= len2) return;
    for (unsigned i = threadIdx.x; i < len2; i += blockDim.x) data[i] = data[i] + 1;
    __syncthreads();
    data[threadIdx.x] = 0;
}
"""
DECLARATION = "__global__ void big_sort(unsigned* data, unsigned len);\n"
LAUNCHER = """
#include "decl.h"
__global__ void quick_sort(unsigned* data, unsigned* counts) {
    unsigned len = counts[blockIdx.x];
    GUARD
        big_sort<<<1, 1024>>>(data, len);
}
"""


def _program(tmp_path, guard: str):
    (tmp_path / "bitonic.cu").write_text(BITONIC)
    (tmp_path / "decl.h").write_text(DECLARATION)
    (tmp_path / "quicksort.cu").write_text(LAUNCHER.replace("GUARD", guard))
    report = analyze_file(tmp_path / "bitonic.cu", Options(resources="estimate"))
    kernel = report.kernels[0]
    return kernel, {f.line for f in lint_file(report, select(["barrier-divergence"]), BITONIC)}


@pytest.mark.parametrize("guard, fires", [
    ("if (len > 1024)", False),  # the launch as written: len2 >= 2048 threads, none exits
    ("if (len > 16 && len <= 512)", True),  # len2 may be 32: threads 32.. exit before the barrier
    ("if (len <= 1024)", True),  # any small len
])
def test_a_launch_from_another_kernel_in_another_file_is_found_and_its_guard_bounds_the_argument(
        tmp_path, guard, fires):
    kernel, lines = _program(tmp_path, guard)
    assert kernel.launch.block == (1024, 1, 1) and "block" not in kernel.launch.guessed
    assert bool(lines) == fires


def test_ptx_bfind_is_the_highest_set_bit():
    words = np.array([0.0, 1.0, 2.0, 3.0, 1023.0, 1024.0, 2.0**32 - 1])
    assert evaluate(op("bfind", Sym("w", True)), {"w": words}).tolist() == [2**32 - 1, 0, 1, 1, 9, 10, 31]


def _ranges(host: str) -> list[dict]:
    tree = parse.parse(host.encode())
    found = []

    def visit(node):
        if node.type == "call_expression" and any(c.type == "kernel_call_syntax" for c in node.children):
            found.append(argument_ranges(node, lambda n: float(n.text) if n.type == "number_literal" else None))
        for child in node.children:
            visit(child)
    visit(tree.root_node)
    return found


def test_launch_guards_give_ranges_from_if_else_and_early_exits_but_not_past_an_assignment():
    assert _ranges("void f(int n) { if (n > 1024) k<<<1, 2>>>(n); else k<<<1, 3>>>(n); }") == [
        {"n": (1025, float("inf"))}, {"n": (float("-inf"), 1024)}]
    assert _ranges("void f(int n) { if (n <= 32) return; k<<<1, 2>>>(n); }") == [{"n": (33, float("inf"))}]
    assert _ranges("void f(int n) { if (!((n < 8) || (n >= 64))) k<<<1, 2>>>(n); }") == [{"n": (8, 63)}]
    assert _ranges("void f(int n) { if (n > 1024) { n = 0; k<<<1, 2>>>(n); } }") == [{}]
    assert _ranges("void f(int n, int m) { if (n > 4 || m > 4) k<<<1, 2>>>(n); }") == [{}]


# HeCBench moe-align: `fill_threads` threads fill, pass one barrier and leave; the others pass
# three.  The block is `fill_threads + threads` with `threads` unknown, so the analysis guesses
# 256, which is `fill_threads` itself: every thread of the guess is a filler.  A guessed width
# says nothing of which warps a real block holds, so the finding stays; under a block of 256
# given by the user the test is the same in every thread.
FILLERS = """
template <int fill_threads>
__global__ void align(int* ids, int* counts, int experts) {
    __shared__ int total;
    if (threadIdx.x < fill_threads) {
        ids[threadIdx.x] = 0;
        __syncthreads();
        return;
    }
    if (threadIdx.x == fill_threads) total = 0;
    __syncthreads();
    atomicAdd(&total, counts[threadIdx.x]);
    __syncthreads();
    counts[threadIdx.x] = total;
}
void launch(int* ids, int* counts, int experts) {
    const int threads = experts > 32 ? experts : 32;
    constexpr int fill_threads = 256;
    align<fill_threads><<<1, fill_threads + threads>>>(ids, counts, experts);
}
"""


def test_a_guessed_block_as_wide_as_a_thread_test_keeps_the_finding():
    assert _lines(FILLERS, Options(resources="estimate")) == {7, 11, 13}
    assert _lines(FILLERS, Options(grid=(1, 1, 1), block=(256, 1, 1), resources="estimate")) == set()


def test_a_loop_over_per_thread_data_says_threads_differ():
    """wyllie's list ranking: the trip count follows data each thread loads at its own index, so
    the message must not narrow the split to whole warps (the stand-in values agreed)."""
    source = """
__global__ void k(long* list, int size) {
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    if (index < size) {
        long node;
        while (((node = list[index]) >> 32) != -1) {
            __syncthreads();
            list[index] = node + 1;
        }
    }
}"""
    report = analyze_source(source, "k.cu", GIVEN)
    (finding,) = lint_file(report, select(["barrier-divergence"]), source)
    assert "differs between threads" in finding.message


# hexciton's final_gpu_kernel: each block of 64x2 threads takes two chunks of 16 matrices and the
# host sizes the grid by a rounded-down division, `num / 32`, so `min(num, start + 16)` never cuts
# a block: every warp runs 8 trips.  A grid rounded up, one twice too large, or an argument the
# grid is not sized from leave blocks that pass `num` half way.
ROUNDED_GRID = """
#include <cstdlib>
#define CHUNK 16
#define SUB 2
__global__ void k(const float* in, float* out, int num) {
  __shared__ float s[SUB][64];
  int start = blockIdx.x * SUB * CHUNK + threadIdx.y * CHUNK;
  int stop = min(num, start + CHUNK);
  for (int m = start; m < stop; m += 2) {
    __syncthreads();
    s[threadIdx.y][threadIdx.x] = in[m * 64 + threadIdx.x];
    __syncthreads();
    out[m * 64 + threadIdx.x] = s[threadIdx.y][63 - threadIdx.x];
  }
}
int main(int argc, char** argv) {
  int num = atoi(argv[1]);
  float *in, *out;
  cudaMalloc(&in, num * 64 * 4); cudaMalloc(&out, num * 64 * 4);
  dim3 grid(GRID);
  dim3 block(64, SUB);
  k<<<grid, block>>>(in, out, ARGUMENT);
}"""


@pytest.mark.parametrize("grid, argument, fires", [
    ("num / (SUB * CHUNK)", "num", False),
    ("num / SUB / CHUNK", "num", False),
    ("(num + SUB * CHUNK - 1) / (SUB * CHUNK)", "num", True),
    ("num / CHUNK", "num", True),
    ("num / (SUB * CHUNK)", "atoi(argv[2])", True),
])
def test_a_grid_the_host_sizes_by_a_rounded_down_division_cuts_no_block(grid, argument, fires):
    source = ROUNDED_GRID.replace("GRID", grid).replace("ARGUMENT", argument)
    assert bool(_lines(source, Options(resources="estimate"))) is fires
