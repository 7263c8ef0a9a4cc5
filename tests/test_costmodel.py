"""The static cost model (cudaperf/costmodel, issue 27 item 3) and the structural reward at the task's
shapes (item 6): the time terms order kernels whose time is a serial chain (a barrier-separated
Hillis-Steele scan, a shared-memory tree) against parallel ones the way the H200 measured them, and
the structural score at the task's shapes follows the estimated time rather than tying kernels that
use the memory system equally well."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.costmodel.model import Ranker
from cudaperf.costmodel.terms import ARCH, describe, request_latency, serial_shared, time_terms
from cudaperf.rewards.config import RewardConfig
from cudaperf.rewards.structural import score_at_shapes, speed
from cudaperf.rl.dataset import kb_measured
from cudaperf.rl.dataset.load import DEFAULT, groups, samples

ROOT = Path(__file__).resolve().parents[1]

TREE = """
__global__ void tree(const float* x, float* out, int cols) {
    __shared__ float sh[256];
    const float* row = x + (size_t)blockIdx.x * cols;
    float acc = 0;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) acc += row[j];
    sh[threadIdx.x] = acc; __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = sh[0];
}
"""
TILED = """
__global__ void tiled(const float* a, const float* b, float* c, int n) {
    __shared__ float ta[16][16], tb[16][16];
    int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    float acc = 0;
    for (int t = 0; t < n; t += 16) {
        ta[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
        tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < 16; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = acc;
}
"""


def _kernel(source: str, grid, block, args) -> dict:
    return analyze_source(source, options=Options(grid=grid, block=block, args=args,
                                                  resources="estimate")).kernels[0].to_json()


def test_barrier_separated_shared_steps_are_a_serial_chain():
    """A tree reduction's shared round trips wait on barriers: they are the thread's chain.  A tiled
    matmul's shared loads each feed an FMA and overlap: hardly any chain, though it issues far more."""
    tree = describe(_kernel(TREE, (4096, 1, 1), (256, 1, 1), {"cols": 1024}))
    tiled = describe(_kernel(TILED, (64, 64, 1), (16, 16, 1), {"n": 1024}))
    assert tiled["shared_requests_per_thread"] > 20 * tree["shared_requests_per_thread"]
    assert serial_shared(tree) > 0.8 * tree["shared_requests_per_thread"]
    assert serial_shared(tiled) < 0.1 * tiled["shared_requests_per_thread"]
    assert time_terms(tree)["latency"] > time_terms({**tree, "barriers_in_loops": 0.0})["latency"]


def _pairs(family: str, slow: str, fast: str) -> tuple[int, int]:
    """(pairs >= 1.25x apart where `slow` was measured slower than `fast`, of them how many the
    untrained time estimate orders the same way), over the committed kernel dataset."""
    found = right = 0
    for group in groups([s for s in samples(DEFAULT) if s.family == family]).values():
        by = {s.impl_id: s for s in group}
        if slow in by and fast in by and by[slow].time_ms >= 1.25 * by[fast].time_ms:
            found += 1
            right += time_terms(by[slow].inputs)["total"] > time_terms(by[fast].inputs)["total"]
    return found, right


@pytest.mark.parametrize("family, slow, fast, share", [
    # 6 of 107 were ordered right before the shared chain; the misses left are block_registers' stores,
    # four consecutive elements per thread priced as uncoalesced (docs/ranking.md)
    ("scan", "block_hillis_steele", "block_registers", 0.6),
    # 1 of 199 before; about half now: at the narrow shapes the two are within what the terms resolve
    ("reduction", "block_tree", "warp_row", 0.5),
])
def test_serial_steps_order_kernels_as_the_h200_measured(family, slow, fast, share):
    found, right = _pairs(family, slow, fast)
    assert found >= 100
    assert right >= share * found


BROADCAST = """
__global__ void weights(const float* x, const float* w, float* y, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int j = 0; j < k; ++j) s += x[j * n + i] * w[j];
    y[i] = s;
}
"""


def test_loads_every_lane_makes_at_one_address_wait_as_l1_hits():
    """A weight every lane of a warp reads is in L1 after the first warp: of the 2k + 1 requests in
    a thread's chain (k lane-wise loads, k weights, one store), k wait the L1's latency."""
    d = describe(_kernel(BROADCAST, (1024, 1, 1), (256, 1, 1), {"n": 1 << 18, "k": 64}))
    assert d["broadcast_executions"] == 64 and d["global_executions"] == 129
    expected = (64 * ARCH["l1_latency_s"] + 65 * ARCH["latency_s"]) / 129
    assert request_latency(d) == pytest.approx(expected)
    assert time_terms(d)["latency"] < 0.6 * time_terms({**d, "broadcast_executions": 0.0})["latency"]


def test_l1_latency_is_in_the_measured_proportion_to_drams():
    """`l1_latency_s` over `latency_s` is the H200's L1-hit over DRAM latency with every warp slot
    chasing pointers (benchmarks/memory_latency.cu, run on the H200 machine)."""
    import csv

    rows = list(csv.DictReader((ROOT / "tests/data/h200/memory_latency/memory_latency.csv").open()))
    loaded = {int(r["footprint_bytes"]): float(r["ns_per_load"]) for r in rows if r["mode"] == "loaded"}
    idle = {int(r["footprint_bytes"]): float(r["ns_per_load"]) for r in rows if r["mode"] == "idle"}
    l1, l2, dram = loaded[16 << 10], loaded[8 << 20], loaded[1 << 30]
    assert l1 < l2 < dram and idle[16 << 10] < idle[8 << 20] < idle[1 << 30]
    assert ARCH["l1_latency_s"] / ARCH["latency_s"] == pytest.approx(l1 / dram, rel=0.05)


@pytest.mark.parametrize("slow, fast", [
    ("direct", "reg_cout"),         # 0 of 8 right with every request priced at DRAM's latency
    ("naive_rows", "reg_rows4"),    # 30 of 36
])
def test_l1_served_weights_order_convolutions_as_the_h200_measured(slow, fast):
    """Convolutions whose chains are mostly weights every lane reads at once: ordered right in every
    pair measured >= 1.25x apart."""
    found, right = _pairs("conv", slow, fast)
    assert found >= 8 and right == found


def _terms(seconds: float, loads: float = 0.5) -> dict[str, float]:
    """A whole candidate's summed terms: `seconds` in all, `loads` of it in its loads' sectors."""
    return {"dram": 0.8 * seconds, "loads": loads * seconds, "stores": 0.3 * seconds, "issue": 0.1 * seconds,
            "flops": 0.05 * seconds, "latency": 0.6 * seconds, "shared": 0.1 * seconds, "global_atomics": 0.1 * seconds,
            "shared_atomics": 0.1 * seconds, "total": seconds}


def test_the_rankers_speedup_reads_its_margin_in_doublings_of_time():
    """Every term doubled (none at zero): the ranker's speed-up is 2x; its own margin otherwise, so two
    candidates of one total with their time in different terms differ as the model weighs them."""
    ranker = Ranker.default()
    assert ranker.speedup(_terms(1e-5), _terms(2e-5)) == pytest.approx(2.0, rel=1e-3)
    assert ranker.speedup(_terms(1e-5), _terms(1e-5)) == pytest.approx(1.0)
    heavy, light = _terms(1e-5, loads=0.95), _terms(1e-5, loads=0.05)
    assert ranker.speedup(light, heavy) > 1.0 and ranker.score_terms(light) > ranker.score_terms(heavy)


def test_speed_component():
    assert speed(_terms(1e-5), _terms(1e-5)) == pytest.approx(0.5)
    assert speed(_terms(1e-6), _terms(1e-5)) > speed(_terms(1e-5), _terms(1e-5)) > speed(_terms(1e-4), _terms(1e-5)) > 0
    assert speed(_terms(4e-6), _terms(1.6e-5)) == pytest.approx(2 / 3, rel=1e-3)     # 4x faster
    assert speed(None, _terms(1e-5)) is None and speed(_terms(1e-5), None) is None


def test_structural_score_at_shapes_follows_where_the_time_goes():
    """Two candidates whose one kernel uses the memory system equally well, one doing 30x the work
    (a thread per row looping where the other spreads the row): without the speed component they tie;
    with it the slow one scores lower, and a race still costs what it did."""
    config = RewardConfig()
    f = _kernel(TREE, (4096, 1, 1), (256, 1, 1), {"cols": 1024})["features"]
    reference = _terms(2e-5)
    fast = score_at_shapes([("k", f, 1e-5)], _terms(1e-5), reference, config)
    slow = score_at_shapes([("k", f, 3e-4)], _terms(3e-4), reference, config)
    assert fast.score > slow.score + 0.3 and fast.components["speed"] > slow.components["speed"]
    plain = RewardConfig(speed_weight=0.0)
    assert score_at_shapes([("k", f, 1e-5)], _terms(1e-5), reference, plain).score == pytest.approx(
        score_at_shapes([("k", f, 3e-4)], _terms(3e-4), reference, plain).score)
    assert "speed" not in score_at_shapes([("k", f, 1e-5)], _terms(1e-5), None, config).components
    racy = score_at_shapes([("k", {**f, "races": 1.0}, 1e-5)], _terms(1e-5), reference, config)
    assert racy.score == pytest.approx(fast.score / 2)


def test_slow_held_out_solutions_score_below_the_fastest():
    """Issue 27: on the held-out H200-measured corpora, two softmax solutions 25-35x slower (relative to
    the reference timed beside them) than the task's fastest scored 1.0 while the fastest scored 0.47.
    Every solution 10x or more slower than its task's fastest now scores below it."""
    items = kb_measured.samples()
    checked = 0
    for task in {s.task_id for s in items}:
        group = [s for s in items if s.task_id == task]
        best = min(group, key=lambda s: s.time_ms)
        for s in group:
            if s.time_ms >= 10 * best.time_ms:
                checked += 1
                assert s.inputs["structural"] < best.inputs["structural"], (task, s.impl_id)
    assert checked >= 2


def test_no_structural_tie_hides_a_2x_gap_within_a_held_out_task():
    items = kb_measured.samples()
    for task in {s.task_id for s in items}:
        group = [s for s in items if s.task_id == task]
        for a, b in itertools.combinations(group, 2):
            if max(a.time_ms, b.time_ms) >= 2 * min(a.time_ms, b.time_ms):
                assert a.inputs["structural"] != b.inputs["structural"], (task, a.impl_id, b.impl_id)


PER_ELEMENT = """
__global__ void sum_atomic(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, x[i]);
}
"""
PER_BLOCK = """
__global__ void sum_block(const float* x, float* out, int n) {
    __shared__ float sh[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    sh[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, sh[0]);
}
"""


def test_same_address_atomics_serialise():
    """A float atomicAdd per element into one address (the H200 took 1.85 ms for 1M of them, the
    block-reduced version 0.012 ms): every lane's update waits for the previous one."""
    n = 1 << 20
    each = describe(_kernel(PER_ELEMENT, (n // 256, 1, 1), (256, 1, 1), {"n": n}))
    block = describe(_kernel(PER_BLOCK, (n // 256, 1, 1), (256, 1, 1), {"n": n}))
    assert each["contended_atomics"] > 0
    assert time_terms(each)["global_atomics"] == pytest.approx(n * 1.8e-9, rel=0.05)
    assert time_terms(each)["total"] > 20 * time_terms(block)["total"]


def test_distinct_address_atomics_at_the_measured_rate():
    """Scattered float atomics (each lane its own address) are priced at `atomic_sectors_per_clock`,
    which must lie in what the H100 measured for them (tests/data/h100/atomic_rate: 7.7 sectors a clock
    scattered over 256 MB, 45 in L2).  At the stated 2.0 of before, a scatter ConvTranspose1d was estimated
    at 186 ms and ran in 11; on the kernel dataset's groups with global atomics the untrained estimate
    ordered 87.7% of the pairs >= 1.25x apart, 89.4% at 16."""
    import json

    import numpy as np

    from cudaperf.rl import rank_train

    measured = json.loads((DEFAULT.parents[1] / "h100" / "atomic_rate" / "atomic_rate.json").read_text())
    distinct = [r["sectors_per_clock"] for r in measured["runs"] if r["pattern"] in ("consecutive", "scattered")]
    assert min(distinct) <= ARCH["atomic_sectors_per_clock"] <= max(distinct)
    items = samples()
    atomic_groups = {s.group for s in items if s.inputs.get("gatomic_sectors", 0) > 0}
    sub = [s for s in items if s.group in atomic_groups]
    untrained = rank_train.score(np.array([-time_terms(s.inputs)["total"] for s in sub]), sub).row()
    assert untrained["pairs_1.25"] == 775 and untrained["accuracy_1.25"] >= 0.894


LAST_BLOCK = """
__global__ void partial_then_total(const float* x, float* partial, unsigned* done, float* out) {
    __shared__ bool is_last;
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = v;
        __threadfence();
        unsigned ticket = atomicAdd(done, 1u);
        is_last = (ticket == TEST);
    }
    __syncthreads();
    if (is_last) {
        float acc = 0;
        for (int i = threadIdx.x; i < gridDim.x; i += blockDim.x) acc += __ldcg(partial + i);
        if (threadIdx.x == 0) *out = acc;
    }
}
__global__ void shared_ticket(const float* x, float* partial, unsigned* done, float* out) {
    __shared__ unsigned ticket;
    if (threadIdx.x == 0) { partial[blockIdx.x] = x[blockIdx.x]; __threadfence(); ticket = atomicInc(done, gridDim.x); }
    __syncthreads();
    if (ticket == gridDim.x - 1) {
        float acc = 0;
        for (int i = threadIdx.x; i < gridDim.x; i += blockDim.x) acc += partial[i];
        if (threadIdx.x == 0) *out = acc;
    }
}
"""


@pytest.mark.parametrize("kernel,test,one_block", [
    ("partial_then_total", "gridDim.x - 1", True), ("shared_ticket", "gridDim.x - 1", True),
    ("partial_then_total", "0", True), ("partial_then_total", "blockIdx.x", False),
    ("partial_then_total", "gridDim.x - 1 || ticket > 7", False)])
def test_the_last_blocks_ticket_side_runs_in_one_block(kernel, test, one_block):
    """`is_last = (atomicAdd(done, 1) == gridDim.x - 1)` passes in one block of the grid (tickets.py): its
    loop over every block's partial result is one block's loads, not 4,096 blocks' (the fused
    triplet-loss kernel of kb_fresh4 was estimated at 1.64 ms for it and ran in 0.26 ms on the H100).  A
    ticket compared with a per-block value, or any other test of it, is not known to pass once."""
    source = LAST_BLOCK.replace("TEST", test)
    report = analyze_source(source, options=Options(kernel=kernel, grid=(4096, 1, 1), block=(256, 1, 1),
                                                    resources="estimate")).kernels[0].to_json()
    tail = next(a for a in report["memory"]["accesses"] if a["text"] in ("__ldcg(partial + i)", "partial[i]"))
    trips = 4096 // 256                                  # each thread of the block adds 16 partial results
    assert tail["executions_per_thread"] == pytest.approx(trips / 4096 if one_block else trips, rel=0.01)  # 4 digits
    d = describe(report)
    assert (time_terms(d)["loads"] < 2e-6) == one_block
