"""atomic-contention and the atomics nvcc already applies once per warp.  The table in
data/arch.json (Arch.aggregated_atomics) is checked against the SASS nvcc 13.0 produced on the
H200 machine for benchmarks/atomic_aggregation.cu (tests/data/h200/atomic_aggregation), the
kernels' forms read by the analyzer itself from that same file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cudaperf.analysis import arch
from cudaperf.analysis.analyzer import Options, analyze_file, analyze_source
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from atomic_aggregation import table  # noqa: E402

SASS = table()
# forms the rule never judges (it needs every lane on one global address), and one form measured
# aggregated but left out of the model: sm_75's unused atomicAdd of a warp-uniform value (the
# table cannot tell a uniform operand from a per-lane one, so it stays reported there)
NOT_MODELLED = {"add_four_addresses", "add_data_address", "add_shared_const"}


def _forms() -> dict[str, tuple[str, bool]]:
    """kernel -> (Access.operation, Access.returns) of its one atomic, as the analyzer reads it."""
    report = analyze_file(str(ROOT / "benchmarks/atomic_aggregation.cu"),
                          Options(grid=(64, 1, 1), block=(256, 1, 1), resources="estimate"))
    out = {}
    for k in report.kernels:
        (atomic,) = [a.access for a in k.accesses if a.access.kind == "atomic"]
        out[k.kernel.name] = (atomic.operation, atomic.returns)
    return out


FORMS = _forms()


def test_the_analyzer_reads_operation_type_and_use_of_every_atomic():
    assert FORMS["add_tid"] == ("atomicAdd.i32", False)
    assert FORMS["add_system_tid"] == ("atomicAdd.i32", False)  # scope suffix dropped
    assert FORMS["add_u64_tid"] == ("atomicAdd.i64", False)
    assert FORMS["add_float"] == ("atomicAdd.f32", False) and FORMS["add_double"] == ("atomicAdd.f64", False)
    assert FORMS["add_const_used"] == ("atomicAdd.i32", True)
    assert FORMS["add_const_used_if_data"] == ("atomicAdd.i32", True)  # used as an index
    assert FORMS["inc_const"] == ("atomicInc.i32", False)


@pytest.mark.parametrize("name", arch.names())
def test_the_table_never_calls_aggregated_what_the_compiler_left_per_lane(name):
    """Silence only where nvcc did the warp reduction: every form the table lists for an
    architecture must be aggregated in that architecture's SASS (sm_70, which nvcc 13 no longer
    targets, lists none)."""
    table_row = arch.get(name).aggregated_atomics
    if name not in SASS:
        assert table_row == {"result_unused": [], "result_read": []}
        return
    for kernel, (operation, returns) in FORMS.items():
        if kernel in NOT_MODELLED:
            continue
        modelled = operation in table_row["result_read" if returns else "result_unused"]
        measured = SASS[name][kernel]["aggregated"]
        assert not modelled or measured, (name, kernel)
        if int(name.removeprefix("sm_")) >= 80:
            assert modelled == measured, (name, kernel)  # and from sm_80 on, every aggregated form is listed


CONTENDED = """
__global__ void k(int* n, unsigned* u, unsigned long long* q, float* f, int* out, const float* x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(n, i);
    atomicMax_system(&n[1], i);
    out[i] = atomicAdd(&n[2], 1);
    atomicAdd(f, x[i]);
    atomicAdd(q, 1ull);
    atomicInc(u, 17u);
    atomicExch(&n[3], i);
    out[i] = atomicMax(&n[4], i);
}
"""


def _lines(source: str, target: str) -> list[int]:
    report = analyze_source(source, "k.cu", Options(grid=(64, 1, 1), block=(256, 1, 1), resources="estimate",
                                                    arch=target))
    return sorted(f.line for f in lint_file(report, select(["atomic-contention"]), source))


def test_forms_the_compiler_aggregates_are_silent_and_per_lane_forms_fire():
    # sm_90: int add/max (unused) and add (read) are reduced in the warp; float, 64-bit, inc, exch,
    # a read max stay one update per lane
    assert _lines(CONTENDED, "sm_90") == [7, 8, 9, 10, 11]
    # sm_75 has no REDUX: only the read add (a popc or a scan) is aggregated
    assert _lines(CONTENDED, "sm_75") == [4, 5, 7, 8, 9, 10, 11]
    assert _lines(CONTENDED, "sm_70") == [4, 5, 6, 7, 8, 9, 10, 11]
