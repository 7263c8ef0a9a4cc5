"""Races tests/sync_heldout missed at its arrival (so that suite is tuned on from then): between
blocks, a store racing with another block's atomics, neighbouring blocks' overlapping ranges, and
one word stored from each block's own shared memory; in a block, the last iteration of a loop with
its barrier at the top meeting what follows the loop.  Each racing kernel has a clean twin."""

from __future__ import annotations

import pytest

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

LAUNCH = Options(grid=(64, 1, 1), block=(256, 1, 1), resources="estimate")


def _races(source: str) -> set[int]:
    report = analyze_source(source, "k.cu", LAUNCH)
    return {f.line for f in lint_file(report, select(["global-race"]), source)}


RESET = """
__global__ void accumulate(const int* v, int* acc, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    RESET
    __syncthreads();
    if (i < n) atomicAdd(acc, v[i]);
}"""

OVERLAP = """
__global__ void expand(const float2* in, float* out) {
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x * WIDTH;
    float2 v = in[blockIdx.x * blockDim.x + t];
    out[base + 2 * t] = v.x;
    out[base + 2 * t + 1] = v.y;
}"""

CARRY = """
__global__ void add_offsets(int* data, const int* sums) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x == 0) return;
    int carry = SOURCE;
    data[i] += carry;
}"""

PARTIAL = """
__global__ void partial_sums(const float* in, float* partial) {
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    for (int st = 128; st > 0; st >>= 1) {
        if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[SLOT] = s[0];
}"""


@pytest.mark.parametrize("source, racing, clean", [
    (RESET, RESET.replace("RESET", "if (threadIdx.x == 0) *acc = 0;"), RESET.replace("RESET", "")),
    (OVERLAP, OVERLAP.replace("WIDTH", "1"), OVERLAP.replace("WIDTH", "2")),
    (CARRY, CARRY.replace("SOURCE", "data[blockIdx.x * blockDim.x - 1]"), CARRY.replace("SOURCE", "sums[blockIdx.x]")),
    (PARTIAL, PARTIAL.replace("SLOT", "0"), PARTIAL.replace("SLOT", "blockIdx.x")),
])
def test_a_race_between_blocks_fires_and_its_fix_is_silent(source, racing, clean):
    assert _races(racing)
    assert not _races(clean)


TOP_BARRIER = """
__global__ void normalise(float* x) {
    __shared__ float red[512];
    red[threadIdx.x] = x[blockIdx.x * 512 + threadIdx.x];
    for (int s = 256; s > 0; s >>= 1) {
        __syncthreads();
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    }
    AFTER
    x[blockIdx.x * 512 + threadIdx.x] /= READ;
}"""


@pytest.mark.parametrize("after, read, races", [
    ("", "red[0]", True),  # thread 0 stores red[0] in the last iteration; every warp reads it
    ("__syncthreads();", "red[0]", False),
    ("", "red[threadIdx.x]", False),  # each thread reads its own word: no other thread wrote it last
])
def test_the_last_iteration_of_a_top_barrier_loop_meets_what_follows(after, read, races):
    source = TOP_BARRIER.replace("AFTER", after).replace("READ", read)
    report = analyze_source(source, "k.cu", Options(grid=(8, 1, 1), block=(512, 1, 1), resources="estimate"))
    assert bool(lint_file(report, select(["shared-race"]), source)) is races
