"""The issued-instruction estimate (analysis/instructions.py): the rules on minimal kernels, and the
estimate against the instructions Nsight Compute counted on model-written kernels."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import pytest

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.rl.rank_train import ranks

DATA = Path(__file__).parent / "data"

CONV = """
__global__ void conv(const float* x, const float* w, float* y, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.f;
    for (int j = 0; j < LIMIT; ++j)
        acc += x[i + j] * w[j];
    y[i] = acc;
}
"""


def issued(source: str, kernel: str = "conv", **args) -> dict[str, int]:
    options = Options(kernel=kernel, grid=(64, 1, 1), block=(256, 1, 1), args=args, resources="estimate")
    return analyze_source(source, options=options).kernels[0].to_json()["compute"]["issued"]


def test_a_runtime_trip_count_pays_for_its_loop_and_its_addresses():
    """The same 5-tap loop bounded by an argument (rolled: increment, test, branch and the index math
    per iteration) and by a constant (unrolled: the counter folds into the loads' offsets, the index is
    computed once per warp)."""
    rolled = issued(CONV.replace("LIMIT", "k"), n=16384, k=5)
    unrolled = issued(CONV.replace("LIMIT", "5"), n=16384, k=5)
    warps = 64 * 256 // 32
    assert rolled["loop"] == pytest.approx(3 * 5 * warps)
    assert unrolled["loop"] == 0
    assert rolled["address"] - unrolled["address"] >= 5 * warps      # an index per tap, in the loop
    assert unrolled["address"] <= 8 * warps                          # the index once, before the loop
    assert rolled["memory"] == unrolled["memory"] == (2 * 5 + 1) * warps
    assert rolled["arithmetic"] == unrolled["arithmetic"] == 5 * warps        # one FFMA per tap


def test_a_register_array_issues_no_memory_instructions():
    """A per-thread array indexed by fully unrolled counters lives in registers: its reads and writes
    are no instructions of their own, unlike the global loads beside them."""
    source = """
__global__ void blocked(const float* x, float* y) {
    float acc[4];
    for (int r = 0; r < 4; ++r) acc[r] = x[threadIdx.x + r * 256];
    for (int r = 0; r < 4; ++r) y[threadIdx.x + r * 256] = acc[r] * 2.0f;
}
"""
    counts = issued(source, kernel="blocked")
    assert counts["memory"] == 8 * 64 * 256 // 32


HISTOGRAM = """
__global__ void hist(const int* x, TYPE* out) {
    __shared__ TYPE h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&h[x[blockIdx.x * blockDim.x + threadIdx.x] & 255], (TYPE)1);
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = h[threadIdx.x];
}
"""


@pytest.mark.parametrize("type_name, loop", [("int", False), ("unsigned int", False), ("float", True),
                                             ("double", True), ("unsigned long long", True)])
def test_a_shared_atomic_without_an_instruction_of_its_own_is_a_cas_loop(type_name, loop):
    """nvcc (13.0, sm_75 to sm_120) compiles a shared-memory atomicAdd on a 32-bit integer to one ATOMS.ADD
    and on a float, a double or a 64-bit integer to a compare-and-swap loop: LDS, the add, ATOMS.CAST.SPIN,
    its test and branch (read with cuobjdump; docs/ranking.md).  Everything else in the kernel is alike."""
    counts = issued(HISTOGRAM.replace("TYPE", type_name), kernel="hist")
    plain = issued(HISTOGRAM.replace("TYPE", "int"), kernel="hist")
    warps = 64 * 256 // 32
    expected = dict.fromkeys(counts, 0)
    if loop:
        expected.update(memory=warps, arithmetic=warps, branch=2 * warps)
    assert {kind: counts[kind] - plain[kind] for kind in counts} == expected


def _measured(csv_path: Path) -> dict[str, float]:
    """Kernel base name -> executed warp instructions of its first profiled launch (a sections CSV's
    "Executed Instructions" or a metrics CSV's `sm__inst_executed.sum`)."""
    out: dict[str, float] = {}
    for row in csv.DictReader(csv_path.open()):
        if row["Metric Name"] in ("Executed Instructions", "sm__inst_executed.sum"):
            name = re.split(r"[<(]", row["Kernel Name"].removeprefix("void "))[0].strip()
            out.setdefault(name, float(row["Metric Value"].replace(",", "")))
    return out


def _pairs(corpus: str) -> list[tuple[float, float]]:
    """(measured, estimated) warp instructions of every profiled kernel of a corpus's candidates that
    executes over a million (the smaller ones are a finishing pass or torch's fill)."""
    from cudaperf.costmodel.candidates import estimate

    profiled: dict[str, list[Path]] = {}
    for path in sorted((DATA / "h100" / corpus / "ncu").glob("*.csv")):
        profiled.setdefault(path.stem.split("__")[0], []).append(path)
    pairs = []
    for task, paths in profiled.items():
        folder = Path(__file__).parent / corpus / task
        codes = [(folder / (p.stem.split("__")[1] + ".py")).read_text() for p in paths]
        for path, est in zip(paths, estimate((folder / "reference.py").read_text(), codes)):
            for name, measured in _measured(path).items():
                launch = next((k for k in est.launches if re.split(r"[<(]", k.kernel)[0].strip() == name), None)
                if launch is not None and measured > 1e6:
                    pairs.append((measured, sum(launch.report["compute"]["issued"].values())))
    return pairs


@pytest.mark.slow
def test_the_estimate_follows_the_instructions_ncu_counted():
    """kb_fresh7's 48 candidates and 8 convolutions of kb_fresh8 under Nsight Compute on an H100
    (tests/data/h100/kb_fresh{7,8}/ncu): 63 kernels from 3.5 M to 2.8 G warp instructions.  Memory
    requests and FLOPs alone were a median 0.27x of what ran (0.02x to 1.3x, 27% within 2x, Spearman
    0.85); the estimate is within 2x for 89% of them, within 3x for all but one, and orders them as the
    counts do (Spearman 0.98).  The rules were designed on these kernels: a floor, not a held-out figure."""
    pairs = _pairs("kb_fresh7") + _pairs("kb_fresh8")
    measured, estimated = np.array(pairs).T
    error = np.abs(np.log(estimated / measured))
    assert len(pairs) >= 60
    assert np.mean(error < np.log(2.0)) >= 0.85 and np.mean(error < np.log(3.0)) >= 0.95
    assert np.corrcoef(ranks(measured), ranks(estimated))[0, 1] >= 0.9


@pytest.mark.slow
def test_the_estimate_follows_the_instructions_ncu_counted_on_a_corpus_it_was_not_designed_on():
    """kb_fresh11's 48 candidates under Nsight Compute on an H100 (tests/data/h100/kb_fresh11/ncu), profiled
    after its estimates were committed: 50 kernels over a million warp instructions.  As committed (7c49a18)
    the estimate was within 2x for 74% of them, within 3x for 98%, Spearman 0.976; after the bool template
    argument was bound (read on this corpus, so no longer held out) 80%, 100%, 0.980.  The naive GEMMs'
    K loops are counted 2.4x high (nvcc unrolls them and folds their address arithmetic)."""
    pairs = _pairs("kb_fresh11")
    measured, estimated = np.array(pairs).T
    error = np.abs(np.log(estimated / measured))
    assert len(pairs) == 50
    assert np.mean(error < np.log(2.0)) >= 0.78 and np.mean(error < np.log(3.0)) >= 0.98
    assert np.corrcoef(ranks(measured), ranks(estimated))[0, 1] >= 0.97


@pytest.mark.slow
def test_the_estimate_follows_the_instructions_ncu_counted_on_kb_fresh12():
    """kb_fresh12's 48 candidates under Nsight Compute on an H100 (tests/data/h100/kb_fresh12/ncu), profiled
    after their estimates were committed (91d28b6): as committed, 49 kernels over a million warp
    instructions, the estimate within 2x for 41 (84%), within 3x for 46, Spearman 0.865.  Since the fast path
    reads the privatised `index_add_` wrapper (5c1de41), its shared-memory kernel is matched too: 50
    kernels, 84%, 98%, 0.891; 0.892 since a shared fp32 atomicAdd counts its CAS loop.  The lowest ratios
    (0.43 to 0.6) are kernels of transcendental math (BCE's log and exp, a vector norm's square root and
    division), whose expansions the arithmetic count prices as one instruction or a few."""
    pairs = _pairs("kb_fresh12")
    measured, estimated = np.array(pairs).T
    error = np.abs(np.log(estimated / measured))
    assert len(pairs) == 50
    assert np.mean(error < np.log(2.0)) >= 0.8 and np.mean(error < np.log(3.0)) >= 0.93
    assert np.corrcoef(ranks(measured), ranks(estimated))[0, 1] >= 0.85


@pytest.mark.slow
def test_the_estimate_follows_the_instructions_ncu_counted_on_kb_fresh13():
    """kb_fresh13's 48 candidates under Nsight Compute on an H100 (tests/data/h100/kb_fresh13/ncu), profiled
    after their estimates were committed (7fa172e): 51 kernels over a million warp instructions, the
    estimate within 2x for 86%, within 3x for 96%, Spearman 0.978, a median of 0.74x what ran (the same
    with the fast path's `sizeof(float4)` and cluster-kernel fixes made after it was scored).  The highest
    (1.9x and 2.0x) are naive kernels whose loops nvcc unrolls, folding their address arithmetic."""
    pairs = _pairs("kb_fresh13")
    measured, estimated = np.array(pairs).T
    error = np.abs(np.log(estimated / measured))
    assert len(pairs) == 51
    assert np.mean(error < np.log(2.0)) >= 0.84 and np.mean(error < np.log(3.0)) >= 0.94
    assert np.corrcoef(ranks(measured), ranks(estimated))[0, 1] >= 0.95

