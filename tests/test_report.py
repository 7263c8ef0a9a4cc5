"""Report shape: features documented and complete, the access graph, launch provenance."""

from __future__ import annotations

from conftest import ROOT, kernel_report

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.analysis.featuredoc import render
from cudaperf.analysis.graph import data_dependent
from cudaperf.analysis.passes import feature_table

GATHER = """
__global__ void k(const float* in, const int* idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int j = idx[i];
        if (in[j] > 0.f) out[i] = in[j];
    }
}"""


def test_features_doc_is_generated_from_the_table():
    assert (ROOT / "docs" / "features.md").read_text() == render()


def test_every_feature_is_a_number_for_every_kernel():
    r = kernel_report(GATHER, grid=(16, 1, 1))
    assert set(r["features"]) == set(feature_table())
    assert all(isinstance(v, float) for v in r["features"].values())
    assert r["features"]["indirect_access_fraction"] > 0


def test_access_graph_links_loads_to_what_they_feed():
    report = analyze_source(GATHER, "t.cu", Options(grid=(16, 1, 1), block=(256, 1, 1))).kernels[0]
    g = report.graph
    idx_load = next(a.access for a in report.accesses if a.access.array == "idx")
    gathers = [a.access for a in report.accesses if a.access.array == "in"]
    assert len(gathers) == 1  # in[j] read twice with no store between: one load (CSE)
    assert data_dependent(g, gathers[0].id) and g.edges[idx_load.id, gathers[0].id]["relation"] == "feeds"
    inner_branch = next(n for n, d in g.nodes(data=True) if d["kind"] == "branch" and "in[j]" in d["stmt"].text)
    assert data_dependent(g, inner_branch)
    assert not data_dependent(g, idx_load.id)
    # nesting: the store sits under both branches
    store = next(a.access for a in report.accesses if a.access.kind == "store")
    context = g.nodes[store.id]["context"]
    assert [side for _, side in context] == [True, True]


def test_data_dependent_branch_marks_the_estimate_inexact_and_thread_level():
    r = kernel_report(GATHER, grid=(16, 1, 1), n=4096)
    assert [b["uniformity"] for b in r["branches"]] == ["thread", "thread"]
    assert r["launch"]["args"]["n"] == {"value": 4096, "source": "cli"}
    assert r["estimate_exact"] is True  # data-dependent *branch*: masks assumed, trip counts still exact
