"""The static analyzer against Nsight Compute on an H200 (measured ground truth, committed data).

Every corpus case was launched once under ncu with its exact launch and arguments
(tests/data/h200/corpus, collected by tests/corpus/measure_h200.sh).  The analyzer, given the
same launch, must land within max(0.5, 10%) of the measured kernel-level ratios.
"""

from __future__ import annotations

import json

import pytest

from ncu_data import DATA, kernel_metrics, measured
from test_corpus_first_principles import CASES, analyse_case

TOLERANCE = lambda value: max(0.5, 0.1 * abs(value))  # noqa: E731
MEASURED = measured()


def test_every_case_was_measured_on_an_h200():
    device = json.loads((DATA / "device.json").read_text())
    assert device["properties"]["name"] == "NVIDIA H200"
    assert (device["properties"]["major"], device["properties"]["minor"]) == (9, 0)
    assert {c["id"] for c in CASES} == set(MEASURED)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_kernel_ratios_match_ncu(case):
    truth = kernel_metrics(MEASURED[case["id"]])
    doc = analyse_case(case).to_json()
    indirect = {p["kind"] for p in case["expect"].get("access_patterns", []) if p["pattern"] == "indirect"}
    for key, want in truth.items():
        got = doc["memory"][key]
        if key.startswith("global") and key.split("_")[1] in indirect:
            continue  # data-dependent addresses: the analyzer reports them as indirect, no sector count
        if want is None:
            assert got is None, f"{key}: ncu saw no such instruction, analyzer says {got}"
            continue
        assert got is not None and abs(got - want) <= TOLERANCE(want), f"{key}: ncu {want:.3f}, analyzer {got}"


def test_measured_divergence_is_predicted():
    """Where the hardware counted divergent branch targets, the analyzer reports a branch that
    really splits warps under that launch (the converse does not hold: nvcc predicates short
    bodies, which then count no branch at all)."""
    missed = []
    for case in CASES:
        if (MEASURED[case["id"]].get("smsp__sass_branch_targets_threads_divergent.sum") or 0) == 0:
            continue
        branches = analyse_case(case).to_json()["branches"]
        if not any((b["divergent_fraction"] or 0) > 0 or b["uniformity"] == "thread" for b in branches):
            missed.append(case["id"])
    assert not missed
