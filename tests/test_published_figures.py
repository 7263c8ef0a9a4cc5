"""Every figure the docs publish, regenerated from committed data and found word for word in the doc.

A doc that drifts from its data, or data that changes under a doc, fails here.  Figures of other
docs are held beside their own code: docs/lint.md by tests/test_lint_suites.py, docs/ranking.md by
tests/test_rl_ranking.py, docs/features.md by tests/test_report.py.
"""

from __future__ import annotations

import itertools
import shutil
import sys
import json
import statistics
from collections import Counter, defaultdict

import pytest
from conftest import ROOT, says


def _n(n: int) -> str:
    return f"{n:,}"


# ------------------------------------------------------------------------------------------ dataset.md

@pytest.fixture(scope="module")
def dataset():
    from cudaperf.rl.dataset import generate, load

    rows = list(load.read_jsonl(load.DEFAULT / load.MEASUREMENTS))
    return list(generate.all_tasks()), rows, json.loads((load.DEFAULT / "summary.json").read_text())


def test_dataset_recipe_counts(dataset):
    tasks, _, _ = dataset
    families = Counter(t.family for t in tasks)
    kinds = Counter(t.kind for t in tasks)
    implementations = [i for t in tasks for i in t.implementations]
    tags = Counter(tag for i in implementations for tag in i.tags).most_common()
    says("docs/dataset.md",
         f"{_n(len(tasks))} tasks in {len(families)} families",
         f"{kinds['c2cuda']} tasks are `c2cuda`, {kinds['torch2cuda']} `torch2cuda`",
         f"Implementation tags (counts over the {_n(len(implementations))} implementations): "
         + ", ".join(f"{tag} {_n(n)}" for tag, n in tags) + ".",
         *(f"| {family} | {n} |" for family, n in families.items()))
    says("README.md", f"generates {_n(len(tasks))} C-to-CUDA and PyTorch-to-CUDA tasks in {len(families)} families")


def test_dataset_measurements(dataset):
    from cudaperf.rl.dataset import load

    _, rows, summary = dataset
    verified = [r for r in rows if r["verified"]]
    groups = defaultdict(list)
    for r in verified:
        groups[(r["task_id"], r["config_id"])].append(r["time_ms"])
    all_groups = {(r["task_id"], r["config_id"]) for r in rows}
    times = [r["time_ms"] for r in verified]

    def pairs(ratio: float) -> int:
        return sum(max(a, b) / min(a, b) >= ratio for ts in groups.values() for a, b in itertools.combinations(ts, 2))

    cumsum_overflows = [r for r in rows if not r["verified"] and r["task_id"].split("/")[1].startswith("cumsum")]
    assert summary["correct"] == len(verified) and summary["tasks"] == len({r["task_id"] for r in rows})
    says("docs/dataset.md",
         f"configuration: {_n(len(rows))} measurements, {_n(len(verified))} verified correct",
         f"Result: {_n(len(verified))} of {_n(len(rows))} verified and timed; "
         f"{_n(sum(len(ts) >= 3 for ts in groups.values()))} of the {_n(len(all_groups))} "
         f"(task, configuration) groups have at least 3 verified implementations, "
         f"the other {len(all_groups) - len(groups)} none. The {len(rows) - len(verified)} failures",
         f"({len(cumsum_overflows)} records)",
         f"Medians range from {min(times) * 1000:.1f} us to {max(times):.0f} ms (median "
         f"{statistics.median(times) * 1000:.0f} us); {_n(pairs(1.25))} same-configuration pairs differ by "
         f"at least 1.25x, {_n(pairs(1.1))} by at least 1.1x",
         f"one `run` on the H200, {summary['seconds']} s for everything",
         f"(`tests/data/h200/dataset/`, {round((load.DEFAULT / load.MEASUREMENTS).stat().st_size / 1000)} KB)")
    says("README.md", f"all {_n(len(rows))} (task, implementation, configuration) triples were verified and "
                      f"timed on an H200 in one {round(summary['seconds'])}-second run ({_n(len(verified))} correct)")


# ----------------------------------------------------------------------------------------- accuracy.md

def test_accuracy_sets_and_readme_summary():
    from ncu_data import SETS

    counts = {}
    for name, (root, _) in SETS.items():
        cases = json.loads((root / "manifest.json").read_text())
        # a kernel: one compiled instantiation (file, name, template arguments)
        counts[name] = (len(cases), len({(c["file"], c["kernel"], json.dumps(c["template_args"])) for c in cases}))
    says("docs/accuracy.md", *(f"(`tests/{name}`, {n} cases, {k} kernels)" for name, (n, k) in counts.items()))
    launches, kernels = (sum(c[i] for c in counts.values()) for i in (0, 1))
    says("README.md", f"Checked against Nsight Compute on an NVIDIA H200 for {launches} launches of {kernels} kernels")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="the published table uses ptxas resources")
def test_accuracy_table_is_what_the_benchmark_regenerates():
    """benchmarks/accuracy.py over both measured sets, against the table between its markers."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    doc = (ROOT / "docs" / "accuracy.md").read_text()
    table = accuracy.table()
    assert doc.split(accuracy.BEGIN + "\n")[1].split(accuracy.END)[0] == table
    ratios = [row.split(" | ") for row in table.splitlines() if "_per_request" in row]
    assert all(cells[4] == cells[5] for cells in ratios)  # every compared ratio within tolerance
    assert max(float(cells[6]) for cells in ratios) < 0.05
    says("README.md", "(mean absolute error below 0.05)")
