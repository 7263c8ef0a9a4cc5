"""atomic-contention behind data-dependent conditions and redundant-barrier at the head of a loop,
each false pattern of real code next to a true twin that must still fire.  Written while tuning
on HeCBench and cuda-samples, so these are regression checks, not a held-out measurement."""

from __future__ import annotations

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file


def findings(source: str, rule: str) -> dict[int, str]:
    """line -> message of `rule`'s findings under a 64 x 256 launch, for sm_70: no atomic form is
    aggregated by the compiler there, so the integer counters below show the conditions alone
    (test_atomic_aggregation.py covers the forms nvcc reduces per warp on later architectures)."""
    report = analyze_source(source, "k.cu", Options(grid=(64, 1, 1), block=(256, 1, 1), resources="estimate",
                                                    arch="sm_70"))
    return {f.line: f.message for f in lint_file(report, select([rule]), source)}


TIES = """
__device__ void statistic(double* out, const float* x, int i) { *out = x[i] * 2.0; }
__global__ void k(const float* x, const double* reference, int* counts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double r = 0;
    statistic(&r, x, i);
    if ((double)r > reference[0]) atomicAdd(&counts[0], 1);
    else if (r == reference[0]) atomicAdd(&counts[1], 1);
    else atomicAdd(&counts[2], 1);
    atomicAdd(&counts[3], 1);
}
"""


def test_an_atomic_behind_a_tie_of_data_is_silent_and_the_other_sides_name_their_condition():
    """`r == reference[0]` (r written through a pointer by a helper) is taken by few lanes: no
    finding.  The `>` and `else` sides may hold the whole warp: they fire, naming the condition
    that decides which lanes get there; the unconditional counter keeps the plain message."""
    found = findings(TIES, "atomic-contention")
    assert sorted(found) == [7, 9, 10]
    assert "which lanes reach it depends on `(double)r > reference[0]`" in found[7]  # the cast's parentheses kept
    assert "depends on `r == reference[0]`" in found[9]
    assert found[10].endswith("all lanes of a warp update one address of `counts`")


FLAG_AND_OWNER = """
__global__ void k(const int* label, const int* best, const float* x, int* counts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (label[i] == -1) atomicAdd(&counts[0], 1);
    if (best[blockIdx.x] == threadIdx.x) atomicAdd(&counts[1], 1);
    if (label[i] == (expf(x[i]) > 0.5f ? 1 : -1)) atomicAdd(&counts[2], 1);
}
"""


def test_a_flag_test_of_data_fires_and_data_naming_one_thread_does_not():
    """`label[i] == -1` and a label against a prediction of +-1 may hold in every lane;
    `best[blockIdx.x] == threadIdx.x` in one."""
    assert list(findings(FLAG_AND_OWNER, "atomic-contention")) == [4, 6]


GROUP_LEADER = """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const int* in, int* counter, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[i] > 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        int res = 0;
        if (active.thread_rank() == 0) res = atomicAdd(counter, active.size());
        out[i] = active.shfl(res, 0) + active.thread_rank();
    }
}
"""


def test_the_leader_of_a_group_the_analysis_cannot_model_is_one_lane():
    assert findings(GROUP_LEADER, "atomic-contention") == {}
    every_lane = GROUP_LEADER.replace("if (active.thread_rank() == 0) res", "res")
    assert list(findings(every_lane, "atomic-contention")) == [9]


TILE_LEADER = """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const double* x, double* sum) {
    cg::thread_block cta = cg::this_thread_block();
    if (threadIdx.x < 8) {
        cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(cta);
        double v = x[blockIdx.x * 8 + threadIdx.x];
        for (int offset = tile8.size() / 2; offset > 0; offset /= 2) v += tile8.shfl_down(v, offset);
        if (tile8.thread_rank() == 0) atomicAdd(sum, v);
    }
}
"""


def test_the_leader_of_a_tiled_partition_is_one_lane():
    """cuda-samples' jacobiCudaGraphs: one tile of 8 per block, its rank-0 lane adds."""
    assert findings(TILE_LEADER, "atomic-contention") == {}
    every_lane = TILE_LEADER.replace("if (tile8.thread_rank() == 0) atomicAdd", "atomicAdd")
    assert list(findings(every_lane, "atomic-contention")) == [10]


LOOP_TEST = """
__global__ void k(const int* in, int* out) {
    __shared__ int repeat;
    do {
        __syncthreads();
        if (threadIdx.x == 0) repeat = 0;
        __syncthreads();
        if (in[blockIdx.x * blockDim.x + threadIdx.x] > 0) repeat = 1;
        __syncthreads();
    } while (repeat);
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
"""


def test_a_barrier_at_the_top_of_a_loop_orders_the_loop_test_and_the_writes_before_the_loop():
    """The first barrier keeps thread 0's reset from overtaking the other threads' read of
    `repeat` in the previous iteration's test; with a test that reads no memory it orders nothing."""
    assert findings(LOOP_TEST, "redundant-barrier") == {}
    counted = LOOP_TEST.replace("do {", "for (int it = 0; it < 4; ++it) {").replace("} while (repeat);", "}")
    assert list(findings(counted, "redundant-barrier")) == [5]
    written_before = counted.replace("    for (int it", "    if (threadIdx.x == 0) repeat = 2;\n    for (int it")
    assert findings(written_before, "redundant-barrier") == {}
