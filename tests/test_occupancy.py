"""Occupancy against what the H200 reported, and resources against the driver's function attributes.

Truth: `cudaOccupancyMaxActiveBlocksPerMultiprocessor` and `cudaFuncGetAttributes` (registers,
static shared memory) read on the H200 for every launch of the corpus and validation sets
(tests/data/h200/*/attributes.json), and the measured anchors of shared/reference/occupancy.md."""

from __future__ import annotations

import json

import pytest
from conftest import says
from ncu_data import SETS, case_options

from cudaperf.analysis.analyzer import analyze_file
from cudaperf.analysis.occupancy import occupancy
from cudaperf.analysis.resources import nvcc

ATTRIBUTES = [(name, a) for name, (_, data) in SETS.items()
              for a in json.loads((data / "attributes.json").read_text())]


@pytest.mark.parametrize("kwargs, blocks", [
    (dict(block_size=128, registers_per_thread=32, static_smem=16384), 13),
    (dict(block_size=256, registers_per_thread=32, dynamic_smem=65536, max_dynamic_smem=65536), 3),
    (dict(block_size=256, registers_per_thread=32, dynamic_smem=8192, carveout=25), 7),   # 64 KB pool
    (dict(block_size=256, registers_per_thread=32, dynamic_smem=1024, carveout=0), 4),    # 8 KB pool
    (dict(block_size=256, registers_per_thread=32, dynamic_smem=232448, max_dynamic_smem=232448), 1),
    (dict(block_size=256, registers_per_thread=32, dynamic_smem=232449, max_dynamic_smem=232449), 0),
    (dict(block_size=256, registers_per_thread=40), 6),    # 1,280 registers per warp: 12 warps per sub-partition
    (dict(block_size=256, registers_per_thread=63), 4),    # 2,048 per warp: 32 warps per SM
    (dict(block_size=1024, registers_per_thread=65), 0),   # 2,304 x 32 warps > 65,536
    (dict(block_size=32, registers_per_thread=16), 32),    # the block-slot limit
    (dict(block_size=256, registers_per_thread=16, barriers=3), 8),  # 21 by barriers, 8 by warps
    (dict(block_size=64, registers_per_thread=16, barriers=3), 21),
])
def test_measured_anchors(kwargs, blocks):
    assert occupancy("sm_90", **kwargs).active_blocks_per_sm == blocks


def test_limiter_and_theoretical():
    fit = occupancy("sm_90", 256, 63)
    assert (fit.limiter, fit.theoretical, fit.active_warps_per_sm) == ("registers", 0.5, 32)
    assert occupancy("sm_90", 32, 16).limiter == "blocks"
    assert occupancy("sm_90", 128, 32, static_smem=48 * 1024).limiter == "shared_memory"
    too_big = occupancy("sm_90", 128, 32, static_smem=40 * 1024, dynamic_smem=16 * 1024)
    assert too_big.active_blocks_per_sm == 0 and "cudaFuncAttributeMaxDynamicSharedMemorySize" in too_big.error


@pytest.mark.parametrize("set_name, attrs", ATTRIBUTES, ids=[f"{s}-{a['id']}" for s, a in ATTRIBUTES])
def test_api_matches_the_driver_for_every_measured_launch(set_name, attrs):
    static, dynamic = attrs["shared_size_bytes"], attrs["smem_dynamic"]
    fit = occupancy("sm_90", attrs["block_threads"], attrs["num_regs"], static, dynamic,
                    max_dynamic_smem=dynamic if static + dynamic > 48 * 1024 else None)
    assert fit.active_blocks_per_sm == attrs["occupancy_blocks_per_sm"]


@pytest.mark.skipif(nvcc() is None, reason="needs nvcc for ptxas resource usage")
def test_ptxas_resources_and_occupancy_agree_with_the_driver():
    """Registers and static shared memory from our nvcc/ptxas run against cudaFuncGetAttributes of
    the NVRTC builds the H200 ran (NVRTC compiled with -lineinfo, which moves a few kernels by
    two registers); occupancy from those resources against the driver's answer."""
    register_misses, occupancy_misses, total = [], [], 0
    for root, data in SETS.values():
        attrs = {a["id"]: a for a in json.loads((data / "attributes.json").read_text())}
        for case in json.loads((root / "manifest.json").read_text()):
            options = case_options(case, "ptxas")
            doc = analyze_file(root / case["file"], options).kernels[0].to_json()
            a, r = attrs[case["id"]], doc["resources"]
            total += 1
            assert r["source"] == "ptxas", (case["id"], r["note"])
            assert r["static_smem"] == a["shared_size_bytes"], case["id"]
            assert abs(r["registers_per_thread"] - a["num_regs"]) <= 2, case["id"]
            if r["registers_per_thread"] != a["num_regs"]:
                register_misses.append(case["id"])
            if doc["occupancy"]["active_blocks_per_sm"] != a["occupancy_blocks_per_sm"]:
                occupancy_misses.append(case["id"])
    assert (total, len(register_misses)) == (146, 3), register_misses
    assert not occupancy_misses
    says("docs/accuracy.md",
         f"the driver's answer for the {total} launches of both kernel sets | {total} / {total} equal",
         f"| {total - len(register_misses)} / {total} equal, the other {len(register_misses)} within 2 registers; "
         f"static shared memory {total} / {total} |")


SWEEP = json.loads((SETS["corpus"][1].parent / "occupancy" / "occupancy_h200.json").read_text())


def test_api_matches_every_answer_of_the_h200_sweep():
    """7,193 calls of cudaOccupancyMaxActiveBlocksPerMultiprocessor on an H200 (tests/occupancy):
    72 register counts, 13 static and 170 dynamic shared-memory sizes, raised and lowered
    maximum-dynamic attributes, 26 block sizes, 32 carveout preferences, 0-16 named barriers."""
    records = SWEEP["records"]
    assert len(records) == 7193 and SWEEP["device"]["name"] == "NVIDIA H200"
    says("docs/accuracy.md", f"| {len(records):,} answers of `cudaOccupancyMaxActiveBlocksPerMultiprocessor`",
         f"| {len(records):,} / {len(records):,} equal |")
    misses = []
    for r in records:
        fit = occupancy("sm_90", r["block_size"], r["registers"], r["static_smem"], r["dynamic_smem"],
                        None if r["carveout"] == -1 else r["carveout"], r["max_dynamic_smem_attr"], r["barriers"])
        want = 0 if r["error"] else r["active_blocks"]
        if fit.active_blocks_per_sm != want:
            misses.append((r["kernel"], r["block_size"], r["dynamic_smem"], fit.active_blocks_per_sm, want))
    assert not misses, misses[:10]
    limiters = {occupancy("sm_90", r["block_size"], r["registers"], r["static_smem"], r["dynamic_smem"],
                          None if r["carveout"] == -1 else r["carveout"], r["max_dynamic_smem_attr"],
                          r["barriers"]).limiter for r in records if r["active_blocks"]}
    assert {"registers", "warps", "blocks", "shared_memory", "barriers"} <= limiters
