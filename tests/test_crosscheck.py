"""`cudaperf crosscheck`: static estimates beside measurements, errors, tolerances and the
per-feature summary; from the committed H200 CSV and the source, without a GPU."""

from __future__ import annotations

import json

import pytest
from conftest import CORPUS, ROOT, kernel_report

from cudaperf.analysis.dynamic.counters import measurements
from cudaperf.analysis.dynamic.crosscheck import FEATURES, compare, summary
from cudaperf.cli import main

CSV = ROOT / "tests" / "data" / "h200" / "corpus" / "ncu_raw.csv"

GATHER = """
__global__ void gather(const float* in, const int* idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[idx[i]];
}"""


def measured(**counters: float) -> dict:
    """Measured sections from a few counters (the rest not collected: null)."""
    return measurements(counters)


def by_feature(comparisons) -> dict:
    return {c.feature: c for c in comparisons}


def test_errors_tolerances_and_what_is_not_comparable():
    static = kernel_report(GATHER, grid=(4096, 1, 1), block=(256, 1, 1), n=1048576)
    static["resources"]["registers_per_thread"] = 10  # what ptxas says for such a kernel
    m = measured(**{
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 40 * 32768.0,
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 2 * 32768.0,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": 4.6 * 32768,
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": 32768.0,
        "launch__registers_per_thread": 16.0,
        "sm__maximum_warps_per_active_cycle_pct": 100.0,
        "smsp__sass_branch_targets_threads_divergent.sum": 0.0,
        **{f"smsp__sass_thread_inst_executed_op_h{op}_pred_on.sum": 1000.0 for op in ("add", "mul", "fma")},
    })
    rows = by_feature(compare("gather", static, m))
    load = rows["memory.global_load_sectors_per_request"]
    assert (load.static, load.measured, load.error, load.within) == (None, 20.0, None, None)  # idx[i] feeds in[...]
    store = rows["memory.global_store_sectors_per_request"]
    assert store.static == 4 and store.error == pytest.approx(0.6) and store.within is False  # tolerance 0.5
    assert store.relative_error == pytest.approx(0.6 / 4.6)
    assert rows["resources.registers_per_thread"].static == 16  # ncu never reports fewer than 16
    assert rows["occupancy.theoretical"].within is True
    assert "compute.flops_fp16" not in rows  # no half arithmetic in the source: ncu's count is moves
    assert "memory.dram_bytes" not in rows  # not measured: not compared
    divergent = rows["branches.divergent"]
    assert divergent.static == 0 and divergent.within is True and divergent.relative_error is None
    table = {s["feature"]: s for s in summary(list(rows.values()))}
    assert table["memory.global_load_sectors_per_request"] == {
        "feature": "memory.global_load_sectors_per_request", "tolerance": "max(0.5, 10%)", "measured": 1,
        "compared": 0, "within": 0, "not_estimated": 1, "mean_abs_error": None, "max_abs_error": None,
        "median_relative_error": None}
    assert (table["memory.global_store_sectors_per_request"]["within"],
            table["memory.global_store_sectors_per_request"]["max_abs_error"]) == (0, pytest.approx(0.6))


def test_summary_aggregates_per_feature_in_catalogue_order():
    static = kernel_report(GATHER.replace("in[idx[i]]", "in[i]"), grid=(4096, 1, 1), block=(256, 1, 1), n=1048576)
    comparisons = []
    for sectors in (4.0, 4.2, 9.0):
        m = measured(**{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": sectors * 100,
                        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 100.0})
        comparisons += compare("copy", static, m)
    (row,) = summary(comparisons)
    assert (row["measured"], row["compared"], row["within"]) == (3, 3, 2)
    assert row["mean_abs_error"] == pytest.approx((0 + 0.2 + 5) / 3)
    assert row["max_abs_error"] == pytest.approx(5.0)
    assert row["median_relative_error"] == pytest.approx(0.2 / 4.2)
    assert [f.name for f in FEATURES][:2] == ["memory.global_load_sectors_per_request",
                                             "memory.global_store_sectors_per_request"]


def test_crosscheck_from_the_h200_csv_and_the_source_without_a_gpu(capsys):
    path = str(CORPUS / "kernels" / "divergence.cu")
    assert main(["crosscheck", path, "--from-ncu-csv", str(CSV), "--arg", "n=1048576", "--arg", "iters=16",
                 "--resources", "estimate", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    analysed = {k["name"]: k for k in result["kernels"] if not k["error"]}
    assert list(analysed) == ["div_odd_even", "div_warp_parity", "div_first_half_warp", "div_block_parity",
                              "div_param", "div_data"]
    odd = {c["feature"]: c for c in analysed["div_odd_even"]["comparisons"]}
    assert odd["compute.flops_fp32"]["static"] == odd["compute.flops_fp32"]["measured"] == 33554432
    assert odd["branches.divergent"]["static"] == odd["branches.divergent"]["measured"] == 1
    data = {c["feature"]: c for c in analysed["div_data"]["comparisons"]}
    assert data["compute.flops_fp32"]["static"] is None and data["compute.flops_fp32"]["within"] is None
    summary_rows = {s["feature"]: s for s in result["summary"]}
    assert summary_rows["memory.global_load_sectors_per_request"]["within"] == 6
    fp32 = summary_rows["compute.flops_fp32"]
    assert (fp32["compared"], fp32["not_estimated"], fp32["within"]) == (5, 1, 5)
    assert main(["crosscheck", path, "--from-ncu-csv", str(CSV), "--kernel", "div_param", "--arg", "n=1048576",
                 "--arg", "iters=16", "--resources", "estimate"]) == 0
    text = capsys.readouterr().out
    assert "kernel div_param" in text and "kernel div_data" not in text
    assert "compute.flops_fp32 " in text and "OFF" not in text.split("registers_per_thread")[0]


def test_crosscheck_usage_errors(capsys, tmp_path):
    assert main(["crosscheck", str(tmp_path / "missing.cu"), "--from-ncu-csv", str(CSV)]) == 2
    assert main(["crosscheck", str(CORPUS / "kernels" / "divergence.cu"), "--measured", str(tmp_path / "x.json")]) == 2
    assert capsys.readouterr().err.count("cudaperf: error:") == 2
