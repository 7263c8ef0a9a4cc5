"""Warp-uniform forms of real code that the warp rules once took for divergence or for lanes
racing (issue 14: divergent-full-mask, implicit-warp-sync), each beside a twin that keeps the
hazard, so the fix cannot silence the rule.  Written from false findings on HeCBench; regression
checks, not a held-out measurement."""

from __future__ import annotations

import pytest

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

LAUNCH = Options(grid=(64, 1, 1), block=(256, 1, 1), resources="estimate")


def _rules_fired(source: str, options: Options = LAUNCH) -> set[str]:
    report = analyze_source(source, "k.cu", options)
    return {f.name for f in lint_file(report, select(["CP406", "CP407"]), source)}


# (name, clean source, buggy twin): each twin differs in the one thing that makes lanes disagree
PAIRS = [
    ("lane groups against a bound rounded to whole warps",  # segsort: 4 bins of 8 lanes per warp
     """
__global__ void k(const int* x, int* out, int bins) {
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int bin = gid >> 3;
    int whole = (bins / 4) * 4;
    int v = x[gid];
    if (bin < whole) v += __shfl_xor_sync(0xffffffff, v, 1);
    out[gid] = v;
}""", "(bins / 4) * 4", "(bins / 2) * 2"),
    ("a member of a struct argument", """
struct Params { int width; int height; };
__global__ void k(const float* x, float* out, const Params p) {
    if (blockIdx.x * 8 + threadIdx.x / 32 >= p.width) return;
    float v = x[blockIdx.x * 256 + threadIdx.x];
    v += __shfl_down_sync(0xffffffff, v, 16);
    out[blockIdx.x * 256 + threadIdx.x] = v;
}""", "threadIdx.x / 32 >= p.width", "threadIdx.x / 2 >= p.width"),
    ("a loop over a row whose bounds are loaded (one warp per row)", """
__global__ void k(const int* ptr, const float* val, float* out) {
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    float acc = 0.f;
    for (int j = ptr[row]; j < ptr[row + 1]; j += 32) {
        acc += val[j + threadIdx.x % 32];
        __syncwarp();
    }
    out[row] = acc;
}""", "threadIdx.x) / 32;", "threadIdx.x) / 2;"),
    ("a warp-strided loop the sampled launch never enters", """
__global__ void k(const int* q, int* out, int start, int end) {
    int warp = (threadIdx.x + blockIdx.x * 256) / 32;
    for (int i = start + warp; i < end; i += gridDim.x * 8) {
        out[q[i]] = i;
        __syncwarp();
    }
    out[end + threadIdx.x] = warp;  // lanes that leave the loop stay (lanes that exit would not count)
}""", "/ 32;", "/ 2;"),
    ("a length read through an index that was loaded itself", """
__global__ void k(const int* queue, const int* index, int* out) {
    int warp = (threadIdx.x + blockIdx.x * 256) / 32;
    int node = queue[warp];
    int len = index[node + 1] - index[node];
    if (len <= 32) out[warp] = __ballot_sync(0xffffffff, threadIdx.x % 32 < len);
    out[4096 + warp] = len;  // lanes that skip the ballot stay (lanes that exit would not count)
}""", "/ 32;", "/ 2;"),
    ("a constant condition that is false inside a divergent branch", """
constexpr int CLUSTER = 8;
__global__ void k(const float* x, float* out) {
    float v = x[blockIdx.x * 256 + threadIdx.x];
    if (threadIdx.x % 32 < 3) {
        if constexpr (CLUSTER == 4) v += __shfl_down_sync(0xffffffff, v, 1);
        out[blockIdx.x * 256 + threadIdx.x] = v;
    }
}""", "CLUSTER == 4", "CLUSTER == 8"),
    ("a warp test on a linear index built with a constant in parentheses", """
constexpr unsigned int ROW(16);
__global__ void k(const float* x, float* out) {
    unsigned int tid(threadIdx.x + ROW * threadIdx.y);
    float v = x[tid];
    if ((tid >> 5) == 0) v += __shfl_down_sync(0xffffffff, v, 1);
    out[tid] = v;
}""", "(tid >> 5) == 0", "(tid >> 4) == 0"),
    ("a value the lowering loses, compared with a warp-uniform one", """
__global__ void k(const int* child, float* out) {
    int base = (threadIdx.x / 32) * 32;
    int depth = base;
    float v = out[threadIdx.x];
    do {
        v += __shfl_down_sync(0xffffffff, v, 1);
        while (child[depth] > 0 && depth < base + 31) depth++;
        depth--;
    } while (depth >= base);
    out[threadIdx.x] = v;
}""", "while (depth >= base)", "while (depth >= base + threadIdx.x % 32)"),
    ("a whole-warp cg::reduce stored by every lane", """
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(const float* x, float* out) {
    __shared__ float sums[8];
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    float v = x[blockIdx.x * 256 + threadIdx.x];
    sums[threadIdx.x / 32] = cg::reduce(warp, v, cg::plus<float>());
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = sums[0] + sums[7];
}""", "cg::reduce(warp, v, cg::plus<float>())", "v"),
    ("a call the analysis does not model, of warp-uniform arguments", """
__global__ void k(const float* x, float* out) {
    float v = x[blockIdx.x * 256 + threadIdx.x];
    int lanes = __popc(__ballot_sync(0xffffffff, v > 0.f));
    if (lanes + threadIdx.x / 32 > 16) v += __shfl_down_sync(0xffffffff, v, 1);
    out[blockIdx.x * 256 + threadIdx.x] = v;
}""", "threadIdx.x / 32 > 16", "threadIdx.x / 2 > 16"),
    ("a grid-stride loop up to a power of two", """
__global__ void k(float* out, int lg) {
    int step = 1 << lg;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    do {
        float v = out[i % 4096];
        v += __shfl_down_sync(0xffffffff, v, 1);
        out[i % 4096] = v;
    } while ((i += blockDim.x * gridDim.x) < step);
}""", "i += blockDim.x * gridDim.x", "i += 48"),
    ("sizeof a typedef", """
typedef char word;
__global__ void k(const float* x, float* out) {
    float v = x[blockIdx.x * 256 + threadIdx.x];
    if (threadIdx.x < 128 / sizeof(word)) v += __shfl_down_sync(0xffffffff, v, 1);
    out[blockIdx.x * 256 + threadIdx.x] = v;
}""", "typedef char word;", "typedef long word;"),  # 128 lanes, or 16
]


@pytest.mark.parametrize(("name", "source", "clean", "buggy"), PAIRS, ids=[p[0] for p in PAIRS])
def test_warp_uniform_form_is_silent_and_its_twin_fires(name, source, clean, buggy):
    assert clean in source
    assert _rules_fired(source) == set()
    assert _rules_fired(source.replace(clean, buggy)) & {"divergent-full-mask", "implicit-warp-sync"}


HOST_PARTIAL_BLOCK = """
__global__ void k(const float* x, float* out, int rows) {
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row < rows) {
        float v = x[row * 32 + threadIdx.x];
        v += __shfl_down_sync(0xffffffff, v, 16);
        out[row] = v;
    }
}
void run(const float* x, float* out, int rows, int per_block) {
    dim3 block(32, per_block, 1);
    k<<<(rows + per_block - 1) / per_block, block>>>(x, out, rows);
}
"""


def test_a_block_the_host_gives_in_part_keeps_its_known_axis():
    """`dim3(32, per_block)`: one warp per row whatever per_block is; with 8 lanes per row the
    row test splits warps."""
    report = analyze_source(HOST_PARTIAL_BLOCK, "k.cu", Options(resources="estimate"))
    launch = report.kernels[0].launch
    assert launch.block == (32, 8, 1) and "block" in launch.guessed  # 256 threads, and still called a guess
    assert _rules_fired(HOST_PARTIAL_BLOCK, Options(resources="estimate")) == set()
    narrow = HOST_PARTIAL_BLOCK.replace("dim3 block(32,", "dim3 block(8,").replace("row * 32", "row * 8")
    assert _rules_fired(narrow, Options(resources="estimate")) == {"divergent-full-mask"}


def test_a_host_value_assigned_under_a_condition_is_unknown_at_the_launch():
    """`if (rows == 0) rows = 1;` may not run: the launch's rows are unknown, not 1."""
    source = HOST_PARTIAL_BLOCK.replace("dim3 block(32, per_block, 1);", """int lanes = 8;
    int rows = per_block / lanes;
    if (rows == 0) rows = 1;
    dim3 block(lanes, rows, 1);""")
    report = analyze_source(source, "k.cu", Options(resources="estimate"))
    assert report.kernels[0].launch.block == (8, 32, 1)


EXITED = """
__global__ void k(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    bool any = __any_sync(0xffffffff, v > 0.f);
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % 32 == 0) out[i / 32] = any ? v : 0.f;
}
"""


def test_lanes_that_exited_do_not_make_a_full_mask_wrong_but_are_no_source():
    """Issue 26: the CUDA model asks the mask's non-exited lanes to arrive, so a vote after `if (i >=
    n) return;` is defined; a shuffle that reads a lane which returned is not (lane 0 adds lane 16's
    value), and is named for that.  The same in a grid-stride loop the kernel ends with."""
    found = {f.line: f.message for f in lint_file(analyze_source(EXITED, "k.cu", LAUNCH), select(["CP407"]), EXITED)}
    assert 6 not in found and "read" in found[7] and "exit" in found[7]
    votes_only = EXITED.replace("    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);\n", "")
    assert not lint_file(analyze_source(votes_only, "k.cu", LAUNCH), select(["CP407"]), votes_only)
    stays = votes_only.replace("if (i >= n) return;", "if (i >= n) { out[i] = 0.f; } else {").replace(
        "out[i / 32] = any ? v : 0.f;\n}", "out[i / 32] = any ? v : 0.f;\n    }\n    out[n + i] = 1.f;\n}")
    assert lint_file(analyze_source(stays, "k.cu", LAUNCH), select(["CP407"]), stays)
    grid_stride = """
__global__ void k(const float* x, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        __syncwarp();
        out[i] = x[i];
    }
}
"""
    assert not lint_file(analyze_source(grid_stride, "k.cu", LAUNCH), select(["CP407"]), grid_stride)
    assert lint_file(analyze_source(grid_stride.replace("    }\n}", "    }\n    out[0] = 1.f;\n}"), "k.cu", LAUNCH),
                     select(["CP407"]), grid_stride)
