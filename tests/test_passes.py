"""Analyses are registered passes (cudaperf/analysis/passes/): a new one is one file, and its feature,
its JSON key and its place in the run follow from what it declares."""

from __future__ import annotations

import json

import pytest

from cudaperf.analysis import featuredoc, passes
from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.analysis.report import SCHEMA_FILE

KERNEL = """
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = 0; j < 4; ++j) out[i] += in[i + j];
}
"""
LAUNCH = dict(grid=(4, 1, 1), block=(128, 1, 1), resources="estimate")


class Accesses(passes.Pass):
    """The toy analysis of docs/architecture.md: the memory accesses in the source."""

    name = "accesses"
    requires = ("memory",)
    features = (passes.Feature("toy_accesses", "memory accesses in the source (0 when not analysed)",
                               lambda r: float(r.results.get("accesses", 0))),)

    def run(self, ctx: passes.Context) -> int:
        return len(ctx.report.accesses)


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setattr(passes, "_REGISTRY", dict(passes.registry()))
    passes.register(Accesses)


def _kernel(analyses=None):
    return analyze_source(KERNEL, "k.cu", Options(**LAUNCH, analyses=analyses)).kernels[0]


def test_registering_a_pass_adds_its_feature_and_runs_it_after_what_it_requires(toy):
    assert "accesses" in passes.names() and passes.wanted({"accesses"}) == {"accesses", "memory"}
    order = [p.name for p in passes.ordered()]
    assert order.index("accesses") > order.index("memory")
    assert passes.feature_table()["toy_accesses"] == "memory accesses in the source (0 when not analysed)"
    assert "`toy_accesses`" in featuredoc.render()
    report = _kernel(frozenset({"accesses"}))
    assert report.to_json()["features"]["toy_accesses"] == 3.0  # in[i + j], and out[i] read and written


def test_a_pass_not_asked_for_does_not_run(toy):
    report = _kernel(frozenset({"memory"}))
    assert "accesses" not in report.results and report.accesses
    assert report.to_json()["features"]["toy_accesses"] == 0.0


def test_requirements_that_are_missing_or_circular_are_refused(monkeypatch):
    class Lost(passes.Pass):
        name, requires = "lost", ("nowhere",)

    monkeypatch.setattr(passes, "_REGISTRY", dict(passes.registry()))
    passes.register(Lost)
    with pytest.raises(ValueError, match="lost"):
        passes.ordered()


def test_the_schema_file_is_generated_from_the_passes():
    assert json.loads(SCHEMA_FILE.read_text()) == featuredoc.schema()


def test_the_json_keys_are_the_schema_keys_in_order():
    kernel = _kernel().to_json()
    assert list(kernel) == list(featuredoc.schema()["$defs"]["kernel"]["properties"])
