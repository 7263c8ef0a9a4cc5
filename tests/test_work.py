"""FLOPs per launch: first principles, then against ncu's SASS counters on the H200.

ncu counts thread-level FADD, FMUL and FFMA with the predicate on (and the fp64 twins); the
roofline's FLOPs are add + mul + 2 x fma."""

from __future__ import annotations

import json

import pytest
from conftest import kernel_report, says
from ncu_data import SETS, case_options, measured

from cudaperf.analysis.analyzer import analyze_file


def compute(code: str, **launch) -> dict:
    return kernel_report(code, **launch)["compute"]


def test_contraction_loops_and_guards():
    code = """
    __global__ void axpy(const float* x, float* y, float a, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = a * x[i] + y[i];          // one FFMA
    }
    __global__ void dot(const float* x, const float* y, float* out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float acc = 0.f;
        for (int k = 0; k < 8; ++k) acc += x[i * 8 + k] * y[k];   // 8 FFMA
        out[i] = acc * 0.5f;                                       // one FMUL
    }"""
    axpy = compute(code.split("__global__ void dot")[0], grid=(4, 1, 1), block=(256, 1, 1), n=1000)
    assert axpy["instructions"] == {"fp32_fma": 1000} and axpy["flops_fp32"] == 2000
    dot = compute("__global__ void dot" + code.split("__global__ void dot")[1], grid=(4, 1, 1), block=(256, 1, 1))
    assert dot["instructions"] == {"fp32_fma": 8 * 1024, "fp32_mul": 1024}
    assert dot["flops_fp32"] == 17 * 1024 and dot["flops"] == 17 * 1024


def test_an_overloaded_helper_is_inlined_by_its_argument_types():
    """`acc_add(float&, ...)` beside `acc_add(float4&, ...)`: a float4 call takes the float4 body (four
    FADDs), a float call the float one; the first definition used to take both, and a float4 sum counted
    no FLOPs."""
    code = """
    __device__ __forceinline__ void acc_add(float& a, const float& b) { a += b; }
    __device__ __forceinline__ void acc_add(float4& a, const float4& b) {
        a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
    }
    template <typename V>
    __global__ void sum2(const V* a, V* o) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        V s = a[i];
        acc_add(s, a[i + 1]);
        o[i] = s;
    }
    template __global__ void sum2<float4>(const float4*, float4*);
    template __global__ void sum2<float>(const float*, float*);"""
    assert compute(code, kernel="sum2<float4>", grid=(4, 1, 1), block=(256, 1, 1))["flops_fp32"] == 4 * 1024
    assert compute(code, kernel="sum2<float>", grid=(4, 1, 1), block=(256, 1, 1))["flops_fp32"] == 1024


def test_a_macro_argument_is_counted_once_where_it_was_written():
    code = """
    #define F(x) (x)
    #define G(x) F(x)
    __global__ void k(const float* a, float* b, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) b[i] = G(a[i] * 2.f + 1.f);   // one FFMA, inside two macros
    }"""
    report = kernel_report(code, grid=(4, 1, 1), block=(256, 1, 1))
    assert report["compute"]["instructions"] == {"fp32_fma": 1024}
    load = next(a for a in report["memory"]["accesses"] if a["kind"] == "load")
    assert (load["line"], load["column"], load["text"]) == (6, 29, "a[i]")  # the argument's, not the call's


def test_precisions_division_and_unknown_counts():
    code = """
    __global__ void k(const double* a, double* b, const float* c, float* d, const int* len) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        b[i] = a[i] * 2.0 + 1.0;     // DFMA (double literals)
        d[i] = c[i] / 3.0f;          // IEEE division: 5 FFMA
        d[i] = d[i] * 2.0f;          // FMUL
    }
    __global__ void rows(const float* a, float* out, const int* len) {
        float s = 0.f;
        for (int j = 0; j < len[blockIdx.x]; ++j) s += a[j];
        out[blockIdx.x] = s;
    }"""
    k = compute(code, kernel="k", grid=(2, 1, 1), block=(128, 1, 1))
    assert k["instructions"] == {"fp64_fma": 256, "fp32_fma": 5 * 256, "fp32_mul": 256}
    assert (k["flops_fp64"], k["flops_fp32"]) == (512, 11 * 256)
    rows = compute(code, kernel="rows", grid=(2, 1, 1), block=(128, 1, 1))
    assert rows["flops_fp32"] is None and rows["flops"] is None and "depends on data" in rows["reason"]


CASES = [(name, case) for name, (root, _) in SETS.items() for case in json.loads((root / "manifest.json").read_text())]


def test_flops_against_ncu_sass_counts():
    """fp32 + fp64 FLOPs of every measured kernel that computes.  (ncu's fp16 counters also count
    HFMA2.MMA register moves, which are not arithmetic, so fp16 is left out here.)"""
    within, total, unknown, misses = 0, 0, 0, []
    for set_name, case in CASES:
        root, data = SETS[set_name]
        compute = measured(data)[case["id"]]["measured"]["compute"]
        truth = compute["flops_fp32"] + compute["flops_fp64"]
        options = case_options(case, "estimate")
        got = analyze_file(root / case["file"], options).kernels[0].to_json()["compute"]
        if truth == 0:
            assert not (got["flops_fp32"] or 0) + (got["flops_fp64"] or 0), (case["id"], got)
            continue
        total += 1
        if got["flops_fp32"] is None or got["flops_fp64"] is None:
            unknown += 1
            assert got["reason"], case["id"]
            continue
        estimate = got["flops_fp32"] + got["flops_fp64"]
        if abs(estimate - truth) <= 0.02 * truth:
            within += 1
        else:
            misses.append((case["id"], truth, estimate))
    assert (total, unknown, within) == (86, 4, 78), misses
    says("docs/accuracy.md", f"on the {total} launches that compute | {within} within 2% ({within} of the "
                             f"{total - unknown} with a count); {unknown} null", f"{len(misses)} off")


def test_dram_bytes_against_ncu_for_kernels_moving_more_than_16_mb():
    """The issue's target: within 35% of ncu's dram__bytes_read + dram__bytes_write on >= 80% of the
    kernels moving more than 16 MB.  Kernels whose addresses depend on data report null, which
    counts as a miss here; what they report as `dram_bytes_at_least` is under ncu's count in each."""
    hits, total, misses = 0, 0, []
    for set_name, case in CASES:
        root, data = SETS[set_name]
        dram = measured(data)[case["id"]]["measured"]["memory"]
        truth = dram["dram_bytes_read"] + dram["dram_bytes_write"]
        if truth <= 16e6:
            continue
        options = case_options(case, "estimate")
        memory = analyze_file(root / case["file"], options).kernels[0].to_json()["memory"]
        total += 1
        if memory["dram_bytes_read"] is None:
            misses.append((case["id"], truth, None))
            assert 0 < memory["dram_bytes_at_least"] <= truth, case["id"]   # a lower bound (5% to 100% here)
            continue
        estimate = memory["dram_bytes_read"] + memory["dram_bytes_write"]
        if abs(estimate - truth) <= 0.35 * truth:
            hits += 1
        else:
            misses.append((case["id"], truth, estimate))
    assert (total, hits) == (45, 38) and all(estimate is None for _, _, estimate in misses), misses
    says("docs/accuracy.md", f"on the {total} launches moving more than 16 MB | {hits} within 35%; the "
                             f"{total - hits} others have data-dependent addresses and report null")


def test_dram_model_first_principles():
    copy = """
    __global__ void copy(const float* in, float* out) {
        int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[i]; }
    __global__ void strided(const float* in, float* out) {
        int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[32 * i]; }
    __global__ void stencil(const float* in, float* out) {
        int i = 1 + blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[i - 1] + in[i] + in[i + 1]; }"""
    small = kernel_report(copy, kernel="copy", grid=(4096, 1, 1), block=(256, 1, 1))["memory"]
    assert small["dram_bytes_read"] == 4 * 2**20      # the footprint, once
    assert small["dram_bytes_write"] == 0             # 8 MiB in all: the writes stay in the 60 MiB L2
    big = kernel_report(copy, kernel="copy", grid=(65536, 1, 1), block=(256, 1, 1))["memory"]
    assert big["dram_bytes_read"] == 64 * 2**20
    assert big["dram_bytes_write"] == pytest.approx(64 * 2**20 * (128 * 2**20 - 60 * 2**20) / (128 * 2**20), rel=1e-6)
    strided = kernel_report(copy, kernel="strided", grid=(4096, 1, 1), block=(256, 1, 1))["memory"]
    assert strided["dram_bytes_read"] == 64 * 2**20   # one scattered sector per thread, 64 B fetched each
    stencil = kernel_report(copy, kernel="stencil", grid=(4096, 1, 1), block=(256, 1, 1))["memory"]
    assert stencil["dram_bytes_read"] == pytest.approx(4 * (2**20 + 2), abs=32)  # neighbours re-read from L2


def test_known_accesses_bound_the_dram_bytes_where_others_depend_on_data():
    """A gather's table is read at loaded indices: its totals are unknown (null, with the reason), and the
    arrays read and written at known addresses still move their footprints, which the time model prices
    (`dram_bytes_at_least`) instead of nothing (82 of 741 kernels of the timed KernelBench-style corpora
    were priced with no DRAM time at all)."""
    from cudaperf.costmodel.terms import describe

    code = """__global__ void gather(const float* table, const int* idx, float* out) {
        int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = table[idx[i]]; }"""
    report = kernel_report(code, kernel="gather", grid=(4096, 1, 1), block=(256, 1, 1))
    memory = report["memory"]
    assert memory["dram_bytes_read"] is None and memory["dram_bytes_write"] is None
    assert memory["dram_bytes_at_least"] == 4 * 2**20    # idx's footprint; out's 4 MiB stay in the L2
    assert describe(report)["dram_bytes"] == 4 * 2**20
    known = kernel_report(code.replace("table[idx[i]]", "table[i]"), kernel="gather", grid=(4096, 1, 1),
                          block=(256, 1, 1))["memory"]
    assert known["dram_bytes_at_least"] is None and describe({**report, "memory": known})["dram_bytes"] == 4 * 2**20


def test_roofline_bound_agrees_with_measured_utilisation():
    """`compute.bound` against the H200: from ncu's FLOP and DRAM counters and the CUDA-event time,
    which roof the kernel actually came closer to (DRAM bandwidth or its precision's peak)."""
    agree, total = 0, 0
    for set_name, case in CASES:
        root, data = SETS[set_name]
        truth = measured(data)[case["id"]]["measured"]
        seconds = {t["id"]: t for t in json.loads((data / "timings.json").read_text())}[case["id"]]["median_us"] * 1e-6
        fp32, fp64 = truth["compute"]["flops_fp32"], truth["compute"]["flops_fp64"]
        dram = truth["memory"]["dram_bytes_read"] + truth["memory"]["dram_bytes_write"]
        if not (fp32 + fp64) or not dram:
            continue
        memory_use = dram / seconds / 4.8e12
        compute_use = max(fp32 / seconds / 67e12, fp64 / seconds / 34e12)
        options = case_options(case, "estimate")
        bound = analyze_file(root / case["file"], options).kernels[0].to_json()["compute"]["bound"]
        if bound is None:
            continue
        total += 1
        agree += bound == ("memory" if memory_use > compute_use else "compute")
    assert agree == total == 82, (agree, total)
    says("docs/accuracy.md", f"on all {total} measured kernels that have both")
