"""Sectors per warp request for the patterns the issue names, derived by hand.

A warp request touches every 32-byte sector an active lane reads; bases are 256-byte aligned.
"""

from __future__ import annotations

import pytest
from conftest import accesses, kernel_report

from cudaperf.analysis import memory

COPY = """
__global__ void k(const {T}* in, {T}* out, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[{INDEX}];
}}
"""


@pytest.mark.parametrize("elem, index, sectors, pattern", [
    ("float", "i", 4, "coalesced"),             # 32 x 4 B = 128 B = 4 sectors
    ("float", "i + 1", 5, "misaligned"),         # 128 B starting 4 B into a sector
    ("float", "2 * i", 8, "strided"),            # 256 B span, every other word
    ("float", "32 * i", 32, "strided"),          # one sector per lane
    ("double", "i", 8, "coalesced"),             # 32 x 8 B = 256 B
    ("float2", "i", 8, "coalesced"),
    ("float4", "i", 16, "coalesced"),            # 512 B = 16 sectors in one request
    ("float", "0", 1, "broadcast"),
    ("float", "blockIdx.x", 1, "broadcast"),
    ("char", "i", 1, "coalesced"),               # 32 B
    ("short", "i", 2, "coalesced"),
])
def test_one_dimensional_patterns(elem, index, sectors, pattern):
    r = kernel_report(COPY.format(T=elem, INDEX=index), grid=(64, 1, 1), block=(256, 1, 1), n=64 * 256 * 32)
    load = accesses(r, "in", "load")[0]
    assert load["sectors_per_request"] == pytest.approx(sectors)
    assert load["pattern"] == pattern
    assert load["bytes"] == {"float": 4, "double": 8, "float2": 8, "float4": 16, "char": 1, "short": 2}[elem]


def test_warp_spans_rows_when_block_is_narrower_than_32():
    code = """
    __global__ void k(const float* in, float* out, int width) {
        int x = blockIdx.x * blockDim.x + threadIdx.x;
        int y = blockIdx.y * blockDim.y + threadIdx.y;
        out[y * width + x] = in[y * width + x];
    }"""
    # blockDim.x = 16: a warp covers two rows of 16 floats = 2 x 64 B = 4 sectors (two per row)
    r16 = kernel_report(code, grid=(64, 64, 1), block=(16, 16, 1), width=1024)
    assert r16["memory"]["global_load_sectors_per_request"] == pytest.approx(4)
    # blockDim.x = 4: eight rows of 16 B, each in its own sector
    r4 = kernel_report(code, grid=(256, 16, 1), block=(4, 64, 1), width=1024)
    assert r4["memory"]["global_load_sectors_per_request"] == pytest.approx(8)


def test_struct_field_and_whole_struct():
    code = """
    struct P { float x, y, z; };
    __global__ void one(const P* p, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = p[i].x; }
    __global__ void all(const P* p, float* out) {
        int i = blockIdx.x * blockDim.x + threadIdx.x; P q = p[i]; out[i] = q.x + q.y + q.z; }
    """
    one = kernel_report(code, kernel="one", grid=(64, 1, 1))
    x = accesses(one, "p", "load")
    # 12-byte stride: 32 lanes span 384 B = 12 sectors for 4 useful bytes each
    assert len(x) == 1 and x[0]["sectors_per_request"] == pytest.approx(12)
    every = kernel_report(code, kernel="all", grid=(64, 1, 1))
    fields = accesses(every, "p", "load")
    assert len(fields) == 3 and all(f["bytes"] == 4 for f in fields)  # align 4: three 4-byte loads
    assert every["memory"]["global_load_sectors_per_request"] == pytest.approx(12, abs=0.5)


def test_aligned_struct_is_one_wide_access():
    code = """
    struct __align__(16) Q { float x, y, z, w; };
    __global__ void k(const Q* q, Q* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = q[i]; }
    """
    r = kernel_report(code, grid=(64, 1, 1))
    load = accesses(r, "q", "load")
    assert len(load) == 1 and load[0]["bytes"] == 16 and load[0]["sectors_per_request"] == pytest.approx(16)


def test_pointer_offsets_and_local_variables():
    code = """
    __global__ void k(const float* in, float* out, int n) {
        const float* row = in + blockIdx.x * n;
        int t = threadIdx.x;
        float* dst = &out[blockIdx.x * n];
        dst[t] = row[t + 1];
    }"""
    r = kernel_report(code, grid=(128, 1, 1), block=(256, 1, 1), n=1024)
    assert accesses(r, "in", "load")[0]["sectors_per_request"] == pytest.approx(5)
    assert accesses(r, "out", "store")[0]["sectors_per_request"] == pytest.approx(4)


def test_device_helper_is_inlined():
    code = """
    __device__ __forceinline__ int column_major(int r, int c, int ld) { return c * ld + r; }
    __device__ float fetch(const float* a, int i) { return a[i]; }
    __global__ void k(const float* in, float* out, int ld) {
        out[blockIdx.x * blockDim.x + threadIdx.x] = fetch(in, column_major(blockIdx.x, threadIdx.x, ld));
    }"""
    r = kernel_report(code, grid=(64, 1, 1), block=(256, 1, 1), ld=1024)
    load = accesses(r, "in", "load")[0]
    assert load["sectors_per_request"] == pytest.approx(32) and load["line"] == 3


def test_gather_is_indirect_and_index_load_is_coalesced():
    code = """
    __global__ void k(const float* in, const int* idx, float* out) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        out[i] = in[idx[i]];
    }"""
    r = kernel_report(code, grid=(64, 1, 1))
    assert accesses(r, "idx")[0]["pattern"] == "coalesced"
    gather = accesses(r, "in")[0]
    assert gather["pattern"] == "indirect" and gather["sectors_per_request"] is None


@pytest.mark.parametrize("row, sectors", [
    ("ids[blockIdx.x]", 4.0),                                  # a row per block
    ("ids[blockIdx.x * blockDim.y + threadIdx.y]", 4.0),       # a row per warp (32-wide blocks)
    ("ids[blockIdx.x * blockDim.x + threadIdx.x]", None),      # a row per lane: each its own sectors, unknown
])
def test_a_warp_uniform_gathered_row_keeps_its_sectors(row, sectors):
    """`table[id * D + lane]` with `id` loaded once per warp (an embedding lookup, a CSR row per warp): the
    address is data, so `indirect`, but its lanes are consecutive whatever `id` is, so the request touches
    the sectors of 32 consecutive floats (validation's embedding_gather_d128 gives ncu's 3.4 with it)."""
    code = f"""
    __global__ void k(const float* table, const int* ids, float* out) {{
        const int id = {row};
        out[(blockIdx.x * blockDim.y + threadIdx.y) * 128 + threadIdx.x] = table[(size_t)id * 128 + threadIdx.x];
    }}"""
    r = kernel_report(code, grid=(64, 1, 1), block=(32, 8, 1))
    gather = accesses(r, "table")[0]
    assert gather["pattern"] == "indirect" and gather["sectors_per_request"] == sectors


@pytest.mark.parametrize("broadcast, sectors", [
    ("__shfl_sync(0xffffffffu, row, 0)", 16.0),        # lane 0's row, read by every lane
    ("__shfl_sync(0xffffffffu, row, threadIdx.x & 1)", None),  # two lanes' rows: not one per warp
    ("__shfl_sync(0xffffffffu, row, 0, 16)", None),    # one per half warp
])
def test_a_row_broadcast_by_a_shuffle_keeps_its_sectors(broadcast, sectors):
    """One lane loads a row index and `__shfl_sync` hands it to the warp (kb_fresh7's embedding lookup,
    a warp per token): every lane reads that lane's value, so the row is one per warp and the float4
    copy of it touches 16 sectors per request, not a sector range per lane."""
    code = f"""
    __global__ void k(const long long* idx, const float4* w4, float4* out4, long long D4) {{
        int lane = threadIdx.x & 31;
        long long t = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
        long long row = 0;
        if (lane == 0) row = idx[t];
        row = {broadcast};
        for (long long c = lane; c < D4; c += 32) out4[t * D4 + c] = w4[row * D4 + c];
    }}"""
    r = kernel_report(code, grid=(64, 1, 1), block=(256, 1, 1), D4=128)
    gather = accesses(r, "w4")[0]
    assert gather["pattern"] == "indirect" and gather["sectors_per_request"] == sectors


def test_shared_subexpressions_are_judged_once_for_warp_uniformity(monkeypatch):
    """A merge path's cursors (segsort's `bb_comput_l`): every step selects on loads at the cursors of the
    step before, so the address is a DAG whose tree is exponential in the steps.  Judged as a tree, six
    steps took 11,624 calls; each node once, under a hundred."""
    step = """
        p = (sb >= 64) || (sa < 32 && a <= b);
        if (p) { sa = sa + 1; a = s[sa]; } else { sb = sb + 1; b = s[sb]; }"""
    code = """
    __global__ void merge(const float* in, const int* start, float* out) {
        __shared__ float s[64];
        s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
        __syncthreads();
        int sa = start[threadIdx.x], sb = 32 + start[threadIdx.x];
        float a = s[sa], b = s[sb];
        bool p;""" + step * 6 + """
        out[blockIdx.x * 64 + threadIdx.x] = in[(sa + sb) * 64 + threadIdx.x];
    }"""
    calls = 0
    judge = memory._stood_in

    def counted(*args, **kwargs):
        nonlocal calls
        calls += 1
        return judge(*args, **kwargs)

    monkeypatch.setattr(memory, "_stood_in", counted)
    r = kernel_report(code, grid=(64, 1, 1), block=(64, 1, 1))
    assert accesses(r, "in")[-1]["pattern"] == "unknown"
    assert 0 < calls < 200


def test_a_uniform_unknown_scaling_the_lane_leaves_the_sectors_unknown():
    """`x[s * lane]` with `s` loaded: the stride between lanes is data, so no stand-in (a uniform term
    only shifts where a request lands when it is added, not multiplied in)."""
    code = """
    __global__ void k(const int* s, const float* x, float* y) {
        const int stride = s[0];
        y[threadIdx.x] = x[stride * threadIdx.x];
    }"""
    r = kernel_report(code, grid=(64, 1, 1), block=(256, 1, 1))
    assert accesses(r, "x")[0]["sectors_per_request"] is None


def test_a_block_decoded_tile_keeps_its_sectors():
    """A tile pair decoded from blockIdx through `sqrt` and fix-up loops (an unknown the lowering gives up
    on, the same in every thread of a block): the rows it picks are unknown, the 32 lanes' columns
    consecutive."""
    code = """
    __global__ void k(const float* x, float* y, int n) {
        long long p = blockIdx.x;
        long long a = (long long)sqrt(2.0 * (double)p);
        while (a * (a + 1) / 2 > p) --a;
        const int row = (int)a * 32 + threadIdx.y;
        y[(long long)row * n + threadIdx.x] = x[(long long)row * n + threadIdx.x];
    }"""
    r = kernel_report(code, grid=(528, 1, 1), block=(32, 8, 1), n=8192)
    assert [(a["pattern"], a["sectors_per_request"]) for a in accesses(r, "x") + accesses(r, "y")] == [
        ("unknown", 4.0), ("unknown", 4.0)]


def test_loop_weighting_and_guards():
    code = """
    __global__ void k(const float* a, const float* b, float* out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        float s = 0.f;
        for (int k = 0; k < 8; ++k) s += a[i * 8 + k];   // 8 requests of 32 sectors each
        out[i] = s + b[i];                               // 1 request of 4 sectors
    }"""
    r = kernel_report(code, grid=(64, 1, 1), block=(256, 1, 1), n=64 * 256)
    assert r["memory"]["global_load_sectors_per_request"] == pytest.approx((8 * 32 + 4) / 9, abs=1e-3)
    a = accesses(r, "a")[0]
    assert a["executions_per_thread"] == pytest.approx(8)


def test_guarded_off_warps_do_not_count():
    code = """
    __global__ void k(const float* in, float* out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = in[i];
    }"""
    # n = 48: warp 0 full, warp 1 half active (64 B = 2 sectors), warps 2.. idle
    r = kernel_report(code, grid=(1, 1, 1), block=(256, 1, 1), n=48)
    assert r["memory"]["global_load_sectors_per_request"] == pytest.approx((4 + 2) / 2)
    assert accesses(r, "in")[0]["executions_per_thread"] == pytest.approx(48 / 256)


def test_grid_stride_loop_trip_counts():
    code = """
    __global__ void k(const float* in, float* out, int n) {
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
            out[i] = 2.f * in[i];
    }"""
    r = kernel_report(code, grid=(32, 1, 1), block=(256, 1, 1), n=32 * 256 * 10)
    load = accesses(r, "in")[0]
    assert load["executions_per_thread"] == pytest.approx(10)
    assert load["sectors_per_request"] == pytest.approx(4)


def test_atomics_are_not_loads_or_stores():
    code = """
    __global__ void hist(const int* v, int* bins) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        atomicAdd(&bins[v[i] & 255], 1);
    }"""
    r = kernel_report(code, grid=(64, 1, 1))
    assert [a["kind"] for a in accesses(r, "bins")] == ["atomic"]
    assert r["memory"]["global_store_sectors_per_request"] is None


def test_loop_counter_started_from_loaded_data_makes_accesses_indirect():
    code = """
    __global__ void spmv(const int* row_ptr, const int* col, const float* val, const float* x, float* y, int rows) {
        int r = blockIdx.x * blockDim.x + threadIdx.x;
        if (r < rows) {
            float sum = 0.f;
            for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) sum += val[j] * x[col[j]];
            y[r] = sum;
        }
    }"""
    r = kernel_report(code, grid=(64, 1, 1), block=(128, 1, 1), rows=8192)
    assert {a["array"]: a["pattern"] for a in accesses(r, kind="load")} == {
        "row_ptr": "misaligned", "val": "indirect", "col": "indirect", "x": "indirect"}
    assert [a["pattern"] for a in accesses(r, "row_ptr")] == ["coalesced", "misaligned"]
    assert r["estimate_exact"] is False  # the row loop's trip count is data


def test_loop_invariant_load_is_hoisted_when_the_loop_writes_nothing():
    code = """
    __global__ void k(const float* A, const float* alpha, float* out, int n) {
        int row = blockIdx.x * blockDim.x + threadIdx.x;
        float acc = 0.f;
        for (int k = 0; k < n; ++k) acc += A[row * n + k] * alpha[0];
        out[row] = acc;
    }
    __global__ void keeps(const float* A, const float* alpha, float* out, int n) {
        int row = blockIdx.x * blockDim.x + threadIdx.x;
        for (int k = 0; k < n; ++k) out[row * n + k] = A[row * n + k] * alpha[0];
    }"""
    hoisted = kernel_report(code, kernel="k", grid=(64, 1, 1), block=(128, 1, 1), n=64)
    assert accesses(hoisted, "alpha")[0]["executions_per_thread"] == pytest.approx(1)
    # one broadcast request per thread's warp vs 64 strided ones: (1 + 64 * 32) / 65
    assert hoisted["memory"]["global_load_sectors_per_request"] == pytest.approx((1 + 64 * 32) / 65, abs=1e-3)
    kept = kernel_report(code, kernel="keeps", grid=(64, 1, 1), block=(128, 1, 1), n=64)
    assert accesses(kept, "alpha")[0]["executions_per_thread"] == pytest.approx(64)  # out may alias alpha
