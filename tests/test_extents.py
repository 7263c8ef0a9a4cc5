"""Compressed-row loops (`for j = ptr[r] .. ptr[r + 1]`) sized from the lengths of the arrays a traced launch
passes (`Options.extents`, analysis/extents.py), and their warp-uniform counters."""

from __future__ import annotations

import pytest
from conftest import accesses

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.analysis.report import document

CSR_ROW_PER_BLOCK = """
__global__ void spmv(const int* ptr, const int* col, const float* val, const float* x, float* y) {
    const int r = blockIdx.x;
    float acc = 0.0f;
    for (int j = ptr[r]; j < ptr[r + 1]; ++j)
        acc += val[j] * x[col[j] * 128 + threadIdx.x];
    y[r * 128 + threadIdx.x] = acc;
}
"""


def _report(code: str, extents: dict[str, int]) -> dict:
    options = Options(grid=(4096, 1, 1), block=(128, 1, 1), extents=extents, resources="estimate")
    return document([analyze_source(code, "csr.cu", options)], "sm_90")["files"][0]["kernels"][0]


@pytest.mark.parametrize("extents, trips", [
    ({"ptr": 4 * 4097, "col": 4 * 262144, "val": 4 * 262144}, 64.0),   # 262,144 entries over 4,096 rows
    ({"ptr": 4 * 4097, "col": 4 * 262144, "val": 4 * 8192}, 2.0),      # the shorter array bounds the walk
    ({"col": 4 * 262144, "val": 4 * 262144}, 1.0),                     # rows not known: one iteration
    ({}, 1.0),
])
def test_a_compressed_row_loop_runs_its_entries_over_its_rows(extents, trips):
    report = _report(CSR_ROW_PER_BLOCK, extents)
    assert accesses(report, "val")[0]["executions_per_thread"] == pytest.approx(trips)
    reason = report["compute"]["reason"]
    assert "whose trip count depends on data" in reason
    assert ("its arrays' entries over its rows" in reason) == (trips != 1.0)


def test_a_loop_not_bounded_by_neighbouring_elements_keeps_one_iteration():
    """`ptr[r]` to `ptr[r] + len[r]`, or to an element two on, is not a compressed row: not averaged."""
    for bound in ("ptr[r] + len[r]", "ptr[r + 2]"):
        code = CSR_ROW_PER_BLOCK.replace("ptr[r + 1]", bound)
        code = code.replace("const int* ptr,", "const int* ptr, const int* len,")
        report = _report(code, {"ptr": 4 * 4097, "len": 4 * 4096, "col": 4 * 262144, "val": 4 * 262144})
        assert accesses(report, "val")[0]["executions_per_thread"] == pytest.approx(1.0)


def test_a_counter_started_from_one_value_per_warp_keeps_the_sectors_it_indexes():
    """`j` runs from `ptr[blockIdx.x]`: unknown, but one value across the block, so `col[j]` is one word per
    request and the row `x[col[j] * 128 + threadIdx.x]` it selects four sectors, not a sector range per lane."""
    report = _report(CSR_ROW_PER_BLOCK, {})
    assert accesses(report, "col")[0]["sectors_per_request"] == 1.0
    assert accesses(report, "x")[0]["sectors_per_request"] == 4.0
    per_lane = CSR_ROW_PER_BLOCK.replace("const int r = blockIdx.x;", "const int r = blockIdx.x * 128 + threadIdx.x;")
    assert accesses(_report(per_lane, {}), "x")[0]["sectors_per_request"] is None


def test_a_counter_one_per_warp_by_arithmetic_keeps_its_sectors():
    """A thread per (row, column), the row `i / 128`: the levels call it per thread, but the row's start,
    step and end are one value per warp of 128 columns, so the gathered row keeps its four sectors."""
    per_element = CSR_ROW_PER_BLOCK.replace(
        "const int r = blockIdx.x;", "const int i = blockIdx.x * blockDim.x + threadIdx.x; const int r = i / 128;")
    report = _report(per_element, {})
    assert accesses(report, "col")[0]["sectors_per_request"] == 1.0
    assert accesses(report, "x")[0]["sectors_per_request"] == 4.0


CHUNKED_BAG = """
__global__ void bag(const long* idx, const long* off, const float* w, float* out, long bags, long total, long dim) {
    __shared__ long staged[256];
    const long b = blockIdx.x;
    const long start = off[b];
    const long end = (b + 1 < bags) ? off[b + 1] : total;
    const long d = threadIdx.x;
    float acc = 0.0f;
    for (long c = start; c < end; c += 256) {
        const int n = (int)((end - c) < 256 ? (end - c) : 256);
        __syncthreads();
        for (int i = threadIdx.x; i < n; i += blockDim.x) staged[i] = idx[c + i];
        __syncthreads();
        for (int i = 0; i < n; ++i) acc += w[staged[i] * dim + d];
    }
    out[b * dim + d] = acc;
}
"""
BAG_EXTENTS = {"idx": 8 * 262144, "off": 8 * 4096, "w": 4 * 100000 * 128, "out": 4 * 4096 * 128}


def _bag(code: str, extents: dict[str, int]) -> dict:
    options = Options(grid=(4096, 1, 1), block=(128, 1, 1), extents=extents, resources="estimate",
                      args={"bags": 4096, "total": 262144, "dim": 128})
    return document([analyze_source(code, "bag.cu", options)], "sm_90")["files"][0]["kernels"][0]


def test_what_a_row_bound_decides_follows_the_average_row():
    """`n = min(end - c, 256)` from the row's bounds: the inner loop over the staged chunk runs the row's 64
    entries, as the row loop does, where the rows are known; one iteration where they are not.  Either way
    the trip count rests on data, and the estimate says so."""
    known, unknown = _bag(CHUNKED_BAG, BAG_EXTENTS), _bag(CHUNKED_BAG, {})
    assert accesses(known, "w")[0]["executions_per_thread"] == pytest.approx(64.0, rel=0.02)
    assert accesses(known, "idx")[0]["executions_per_thread"] == pytest.approx(0.5, rel=0.02)  # 64 over 128 threads
    assert accesses(unknown, "w")[0]["executions_per_thread"] == pytest.approx(1.0)
    for report in (known, unknown):
        assert not report["estimate_exact"]
        assert "whose trip count depends on data" in report["compute"]["reason"]


def test_a_pointer_array_the_kernel_writes_is_not_read_as_rows():
    written = CHUNKED_BAG.replace("const long* off", "long* off").replace(
        "    out[b * dim + d] = acc;", "    out[b * dim + d] = acc;\n    off[b] = 0;")
    assert accesses(_bag(written, BAG_EXTENTS), "w")[0]["executions_per_thread"] == pytest.approx(1.0)


ADAPTIVE_ROW = """
__global__ void spmv(const int* ptr, const int* col, const float* val, const float* x, float* y) {
    const int r = blockIdx.x;
    const int start = ptr[r], end = ptr[r + 1];
    float acc = 0.0f;
    if (end - start > 64) {
        for (int j = start + threadIdx.x; j < end; j += 128) acc += val[j] * x[col[j]];
    } else if (threadIdx.x == 0) {
        for (int j = start; j < end; ++j) acc += val[j] * x[col[j]];
    }
    y[r * 128 + threadIdx.x] = acc;
}
"""


def test_a_branch_on_a_rows_length_keeps_both_sides():
    """Every row of the average length would take one side of `end - start > 64`; real rows differ, so both
    sides run, as for any condition on data."""
    report = _report(ADAPTIVE_ROW, {"ptr": 4 * 4097, "col": 4 * 245760, "val": 4 * 245760})  # 60 per row
    strided, serial = accesses(report, "val")
    assert strided["executions_per_thread"] > 0 and serial["executions_per_thread"] > 0
    assert not report["estimate_exact"]


SPLIT_BAG = """
__global__ void bag(const long long* offsets, const long long* indices, const float* w, float* out,
                    long long num_bags, long long num_indices) {
    const long long b = blockIdx.x;
    const long long start = offsets[b];
    const long long end = (b + 1 < num_bags) ? offsets[b + 1] : num_indices;
    const int g = threadIdx.x / 64, t = threadIdx.x % 64;
    float acc = 0.0f;
    long long k = start + g;
    for (; k + 4 < end; k += 8)
        acc += w[indices[k] * 64 + t] + w[indices[k + 4] * 64 + t];
    out[b * 64 * 4 + threadIdx.x] = acc;
}
"""


def test_a_row_walked_by_groups_of_the_block_runs_its_share_of_the_entries():
    """`for (; k + 4 < end; k += 8)` from `start + g`, four groups taking every other pair of a bag's entries
    (kb_fresh10's block-split embedding bag): 64 entries a bag is 8 trips a thread, not one."""
    options = Options(grid=(16384, 1, 1), block=(256, 1, 1), args={"num_bags": 16384, "num_indices": 1 << 20},
                      extents={"offsets": 8 * 16384, "indices": 8 << 20, "w": 4 * 64 * 100000,
                               "out": 4 * 256 * 16384}, resources="estimate")
    report = document([analyze_source(SPLIT_BAG, "bag.cu", options)], "sm_90")["files"][0]["kernels"][0]
    assert accesses(report, "w")[0]["executions_per_thread"] == pytest.approx(8.0, rel=0.15)
    assert report["estimate_exact"] is False
