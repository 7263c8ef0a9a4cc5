"""A kernel's time terms on the H200, from static analysis: `describe(kernel)` reads a
`cudaperf.analyze/1` kernel object into named launch totals (threads, sectors, wavefronts, DRAM bytes,
FLOPs, atomics, occupancy...), `time_terms` turns those into the seconds each H200 resource would need
on its own, `log_terms` into the ranker's inputs.  Numbers only (math): below the ranker (`model`), the
whole-candidate estimate (`candidates`), the rewards and rl."""

from __future__ import annotations

import math
from typing import Any

# H200 rates the time terms use: DRAM and the launch overhead measured (docs/ranking.md); distinct-address atomics
# at the rate an H100 measured with a footprint beyond L2 (tests/data/h100/atomic_rate); sector
# and shared rates per SM and clock as the hardware issues them.  `l1_latency_s` is `latency_s` scaled by
# the H200's measured L1-hit to DRAM latency, both with every warp slot chasing (43 ns and 370 ns:
# tests/data/h200/memory_latency).  `issue_share`: the share of the four schedulers' issue slots the
# estimated instructions (analysis/instructions.py) get, stalls included: the issue-bound kernels of kb_fresh7
# and kb_fresh8 issue 0.7-0.85 a scheduler and clock under ncu and the estimate is a median 0.86x of what ran;
# 0.5 was chosen of 1.0, 0.75, 0.5, 0.35, 0.25 on the kernel dataset and the timed kb corpora (docs/ranking.md).
ARCH = {"sm_count": 132, "clock_hz": 1.98e9, "dram_bps": 4.0e12, "load_sector_bps": 7e12, "store_sector_bps": 2e12,
        "fp32_flops": 60e12, "atomic_sectors_per_clock": 16.0, "latency_s": 6e-7, "l1_latency_s": 7e-8,
        "launch_s": 3e-6, "issue_share": 0.5, "shared_step_cycles": 100.0, "same_address_atomic_s": 1.8e-9}


def _kernel_json(kernel: Any) -> dict:
    return kernel.to_json() if hasattr(kernel, "to_json") else kernel


def _dram_bytes(memory: dict) -> float:
    """DRAM bytes of one launch: read and written back, or where addresses depend on data, what the known
    accesses move (`dram_bytes_at_least`, absent from reports made before it: nothing then)."""
    if memory["dram_bytes_read"] is not None:
        return float(memory["dram_bytes_read"] + (memory["dram_bytes_write"] or 0))
    return float(memory.get("dram_bytes_at_least") or 0)


def describe(kernel: Any) -> dict[str, float]:
    """Launch totals of one analysed kernel: what the model's vector is built from.  Accepts a
    `cudaperf.analyze/1` kernel object (dict) or a KernelReport."""
    from ..analysis.passes import ranked  # the analysis stack, only when a kernel is described

    k = _kernel_json(kernel)
    f = k["features"]
    block, grid = k["launch"]["block"], k["launch"]["grid"]
    block_threads = block[0] * block[1] * block[2]
    blocks = grid[0] * grid[1] * grid[2]
    warps = blocks * math.ceil(block_threads / 32)
    totals = {"gld_requests": 0.0, "gst_requests": 0.0, "gld_sectors": 0.0, "gst_sectors": 0.0,
              "gatomic_requests": 0.0, "gatomic_sectors": 0.0, "satomic_requests": 0.0, "shared_wavefronts": 0.0,
              "shared_requests": 0.0, "indirect_requests": 0.0, "max_serial_requests": 0.0,
              "global_executions": 0.0, "broadcast_executions": 0.0}
    for a in k["memory"]["accesses"]:
        executions = a.get("executions_per_thread") or 0.0
        requests = executions * warps
        if a["space"] == "global":
            sectors = a["sectors_per_request"]
            if sectors is None:   # data-dependent address: every lane its own sectors
                sectors = 32.0 * max(1.0, a["instruction_bytes"] / 32.0)
                totals["indirect_requests"] += requests
            side = {"load": "gld", "store": "gst"}.get(a["kind"], "gatomic")
            totals[f"{side}_requests"] += requests
            totals[f"{side}_sectors"] += requests * sectors
            totals["max_serial_requests"] = max(totals["max_serial_requests"], executions)
            totals["global_executions"] += executions
            if a["kind"] == "load" and a.get("pattern") == "broadcast":
                totals["broadcast_executions"] += executions
        elif a["space"] == "shared" and a["kind"] == "atomic":
            totals["satomic_requests"] += requests
        elif a["space"] == "shared":
            totals["shared_requests"] += requests
            totals["shared_wavefronts"] += requests * (a["wavefronts_per_request"] or 1.0)
    occupancy = k["occupancy"]
    resources_ = k["resources"]
    return {
        "threads": float(blocks * block_threads), "blocks": float(blocks), "block_threads": float(block_threads),
        "warps": float(warps), **totals,
        "dram_bytes": _dram_bytes(k["memory"]),
        "flops": float(k["compute"]["flops"] or 0),
        "issued_instructions": float(sum(k["compute"]["issued"].values())),
        "active_blocks_per_sm": float(occupancy.get("active_blocks_per_sm") or 0),
        "spill_bytes": float((resources_.get("spill_stores") or 0) + (resources_.get("spill_loads") or 0)),
        **{name: float(f[name]) for name in ranked()},  # the features the analyses mark as the model's
    }


def serial_requests(d: dict[str, float]) -> float:
    """Global requests one thread issues in sequence.  The analyzer's `global_requests_per_thread` is
    warp requests x 32 / threads, which counts a block narrower than a warp (a single-thread tail
    kernel looping over partial sums) 32 / block_threads times over; per warp is what one thread waits for."""
    block = d.get("block_threads") or 32.0
    return d["global_requests_per_thread"] * block / (32.0 * math.ceil(block / 32.0))


def serial_shared(d: dict[str, float]) -> float:
    """Shared-memory round trips one thread makes in sequence, in a kernel with barriers in loops (a
    tree reduction, a Hillis-Steele scan: each step a shared load, a store and a barrier the whole
    block waits on).  Shared loads that feed arithmetic (a tiled matmul's inner product: an FMA's two
    FLOPs per pair of loads, independent of one another) overlap; the requests beyond the thread's
    FLOPs are the chain, per warp as `serial_requests`."""
    requests = d.get("shared_requests_per_thread", 0.0)
    if requests <= 0 or d.get("barriers_in_loops", 0.0) <= 0:
        return 0.0
    block = d.get("block_threads") or 32.0
    chain = max(0.0, requests - d.get("flops_per_thread", 0.0))
    return chain * block / (32.0 * math.ceil(block / 32.0))


def request_latency(d: dict[str, float]) -> float:
    """Seconds one global request of a thread's chain waits, on average: a load every lane of a warp
    makes at one address (a convolution's weight, a naive matmul's element of A) is served by L1 once
    the first warp has asked for it; the rest wait as for DRAM."""
    total = d.get("global_executions", 0.0)
    share = d.get("broadcast_executions", 0.0) / total if total > 0 else 0.0
    return share * ARCH["l1_latency_s"] + (1.0 - share) * ARCH["latency_s"]


def contended_atomics(d: dict[str, float]) -> float:
    """Seconds of global atomics every lane aims at one address (a float `atomicAdd(out, v)` per element):
    they serialise at the L2 slice that owns it, one lane's update after another, 1.8 ns each (the
    model-style mse candidate's atomic per element on the H200).  The analyzer's `contended_atomics`
    already leaves out the forms nvcc reduces to one update per warp."""
    if d.get("contended_atomics", 0.0) <= 0:
        return 0.0
    lanes = min(32.0, d.get("block_threads") or 32.0)
    return d["gatomic_requests"] * lanes * ARCH["same_address_atomic_s"]


def time_terms(d: dict[str, float]) -> dict[str, float]:
    """Seconds each resource would take on its own, and their maximum plus a launch: DRAM bytes;
    32-byte sectors of global loads and of stores (partial-sector stores cost more); shared-memory
    wavefronts (bank conflicts); issued warp instructions; FLOPs; sectors of global atomics (or their
    lanes one after another where they all hit one address, `contended_atomics`) and
    requests of shared atomics; the latency chain of one thread times the waves of blocks: its global
    requests (four in flight, each waiting `request_latency`) and its barrier-separated shared round
    trips (`serial_shared`, 100 cycles a step)."""
    sm, clock = ARCH["sm_count"], ARCH["clock_hz"]
    resident = max(d["active_blocks_per_sm"], 1.0) * sm
    waves = max(1.0, math.ceil(d["blocks"] / resident))
    terms = {
        "dram": d["dram_bytes"] / ARCH["dram_bps"],
        "loads": 32.0 * d["gld_sectors"] / ARCH["load_sector_bps"],
        "stores": 32.0 * d["gst_sectors"] / ARCH["store_sector_bps"],
        "shared": d["shared_wavefronts"] / (sm * clock),
        "issue": d["issued_instructions"] / (sm * 4 * clock * ARCH["issue_share"]),
        "flops": d["flops"] / ARCH["fp32_flops"],
        "global_atomics": max(d["gatomic_sectors"] / (ARCH["atomic_sectors_per_clock"] * clock), contended_atomics(d)),
        "shared_atomics": 4.0 * d["satomic_requests"] / (sm * clock),
        "latency": waves * (serial_requests(d) * request_latency(d) / 4.0
                            + serial_shared(d) * ARCH["shared_step_cycles"] / clock),
    }
    terms["total"] = max(terms.values()) + ARCH["launch_s"]
    return terms


TERMS = ("dram", "loads", "stores", "shared", "issue", "flops", "global_atomics", "shared_atomics", "latency", "total")


def log_terms(terms: dict[str, float]) -> dict[str, float]:
    """Time terms (seconds; a kernel's, or a candidate's sums over what it launches) in log2
    microseconds: the model's inputs."""
    return {f"t_{name}": math.log2(1e6 * terms.get(name, 0.0) + 1e-3) for name in TERMS}


def vector(d: dict[str, float]) -> dict[str, float]:
    """The model's inputs of one described kernel: each time term, and their maximum."""
    return log_terms(time_terms(d))
