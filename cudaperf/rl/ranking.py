"""The offline pairwise ranker: which of two kernels doing the same work runs faster, from static
analysis alone.

`describe(kernel)` reads a `cudaperf.analyze/1` kernel object into named launch totals (threads,
sectors, wavefronts, DRAM bytes, FLOPs, atomics, occupancy...).  `time_terms` turns those into the
seconds each H200 resource would need on its own; `Ranker` scores the log of every term with a
linear model whose weights are all <= 0, and for two kernels P(a faster) = sigmoid(score(a) -
score(b)), so prefer(a, b) = 1 - prefer(b, a).  The default model is a small JSON of coefficients in
package data: inference needs numpy only.  Training (`rank_train`, scipy) uses pairs of
implementations of the same task and configuration whose measured times differ by at least 10%;
evaluation holds out whole task families."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

SCHEMA = "cudaperf.ranker/1"


def _has_kernels(code: str, reason: str | None) -> bool:
    """Whether an unreadable candidate is still a candidate (it defines kernels, its Python parses)."""
    if reason is None or reason.startswith(("python does not parse", "no CUDA", "no class ModelNew")):
        return False
    return "__global__" in code
# H200 rates the time terms use: DRAM and the launch overhead measured (docs/ranking.md); sector, atomic
# and shared rates per SM and clock as the hardware issues them.
ARCH = {"sm_count": 132, "clock_hz": 1.98e9, "dram_bps": 4.0e12, "load_sector_bps": 7e12, "store_sector_bps": 2e12,
        "fp32_flops": 60e12, "atomic_sectors_per_clock": 2.0, "latency_s": 6e-7, "launch_s": 3e-6}
_FEATURES = ("global_load_efficiency", "global_store_efficiency", "shared_efficiency", "uncoalesced_access_fraction",
             "vector_access_fraction", "indirect_access_fraction", "divergent_warp_fraction", "occupancy_theoretical",
             "registers_per_thread", "global_requests_per_thread", "shared_requests_per_thread",
             "atomic_requests_per_thread", "contended_atomics", "barriers", "barriers_in_loops", "flops_per_thread",
             "dram_bytes_per_thread", "thread_divergent_branches", "unrolled_loops", "max_loop_depth")


def _kernel_json(kernel: Any) -> dict:
    return kernel.to_json() if hasattr(kernel, "to_json") else kernel


def describe(kernel: Any) -> dict[str, float]:
    """Launch totals of one analysed kernel: what the model's vector is built from.  Accepts a
    `cudaperf.analyze/1` kernel object (dict) or a KernelReport."""
    k = _kernel_json(kernel)
    f = k["features"]
    block, grid = k["launch"]["block"], k["launch"]["grid"]
    block_threads = block[0] * block[1] * block[2]
    blocks = grid[0] * grid[1] * grid[2]
    warps = blocks * math.ceil(block_threads / 32)
    totals = {"gld_requests": 0.0, "gst_requests": 0.0, "gld_sectors": 0.0, "gst_sectors": 0.0,
              "gatomic_requests": 0.0, "gatomic_sectors": 0.0, "satomic_requests": 0.0, "shared_wavefronts": 0.0,
              "shared_requests": 0.0, "indirect_requests": 0.0, "max_serial_requests": 0.0}
    for a in k["memory"]["accesses"]:
        requests = (a.get("executions_per_thread") or 0.0) * warps
        if a["space"] == "global":
            sectors = a["sectors_per_request"]
            if sectors is None:   # data-dependent address: every lane its own sectors
                sectors = 32.0 * max(1.0, a["instruction_bytes"] / 32.0)
                totals["indirect_requests"] += requests
            side = {"load": "gld", "store": "gst"}.get(a["kind"], "gatomic")
            totals[f"{side}_requests"] += requests
            totals[f"{side}_sectors"] += requests * sectors
            totals["max_serial_requests"] = max(totals["max_serial_requests"], a.get("executions_per_thread") or 0.0)
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
        "dram_bytes": float((k["memory"]["dram_bytes_read"] or 0) + (k["memory"]["dram_bytes_write"] or 0)),
        "flops": float(k["compute"]["flops"] or 0),
        "active_blocks_per_sm": float(occupancy.get("active_blocks_per_sm") or 0),
        "spill_bytes": float((resources_.get("spill_stores") or 0) + (resources_.get("spill_loads") or 0)),
        **{name: float(f[name]) for name in _FEATURES},
    }


def serial_requests(d: dict[str, float]) -> float:
    """Global requests one thread issues in sequence.  The analyzer's `global_requests_per_thread` is
    warp requests x 32 / threads, which counts a block narrower than a warp (a single-thread tail
    kernel looping over partial sums) 32 / block_threads times over; per warp is what one thread waits for."""
    block = d.get("block_threads") or 32.0
    return d["global_requests_per_thread"] * block / (32.0 * math.ceil(block / 32.0))


def time_terms(d: dict[str, float]) -> dict[str, float]:
    """Seconds each resource would take on its own, and their maximum plus a launch: DRAM bytes;
    32-byte sectors of global loads and of stores (partial-sector stores cost more); shared-memory
    wavefronts (bank conflicts); issued memory instructions; FLOPs; sectors of global atomics and
    requests of shared atomics; the latency chain of one thread times the waves of blocks."""
    sm, clock = ARCH["sm_count"], ARCH["clock_hz"]
    resident = max(d["active_blocks_per_sm"], 1.0) * sm
    waves = max(1.0, math.ceil(d["blocks"] / resident))
    terms = {
        "dram": d["dram_bytes"] / ARCH["dram_bps"],
        "loads": 32.0 * d["gld_sectors"] / ARCH["load_sector_bps"],
        "stores": 32.0 * d["gst_sectors"] / ARCH["store_sector_bps"],
        "shared": d["shared_wavefronts"] / (sm * clock),
        "issue": (d["gld_requests"] + d["gst_requests"] + d["gatomic_requests"] + d["shared_requests"]
                  + d["satomic_requests"]) / (sm * 4 * clock),
        "flops": d["flops"] / ARCH["fp32_flops"],
        "global_atomics": d["gatomic_sectors"] / (ARCH["atomic_sectors_per_clock"] * clock),
        "shared_atomics": 4.0 * d["satomic_requests"] / (sm * clock),
        "latency": waves * serial_requests(d) * ARCH["latency_s"] / 4.0,
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


class Ranker:
    """A linear pairwise model: score = (vector / scale) . weights, P(a faster) = sigmoid(score(a) -
    score(b)).  Only differences of vectors of two kernels matter, so there is no offset."""

    def __init__(self, model: dict):
        if model.get("schema") != SCHEMA:
            raise ValueError(f"not a {SCHEMA} model")
        self.model = model
        self.names: list[str] = model["features"]
        self.scale = np.asarray(model["scale"], dtype=float)
        self.weights = np.asarray(model["weights"], dtype=float)

    @classmethod
    def default(cls) -> Ranker:
        """The model trained on the committed H200 measurements (package data)."""
        return cls(json.loads(resources.files("cudaperf.rl").joinpath("data/ranker.json").read_text()))

    @classmethod
    def load(cls, path: str | Path) -> Ranker:
        return cls(json.loads(Path(path).read_text()))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.model, indent=1) + "\n")

    def inputs(self, described: dict[str, float]) -> np.ndarray:
        return self.inputs_of_terms(time_terms(described))

    def inputs_of_terms(self, terms: dict[str, float]) -> np.ndarray:
        v = log_terms(terms)
        return np.array([v[n] for n in self.names]) / self.scale

    def score_terms(self, terms: dict[str, float]) -> float:
        """Higher is faster, for summed terms (a candidate's, `candidates.Estimate.terms`)."""
        return float(self.inputs_of_terms(terms) @ self.weights)

    def score(self, kernel: Any) -> float:
        """Higher is faster: minus the model's log-time-like estimate for one kernel."""
        return self.score_described(describe(kernel))

    def score_described(self, described: dict[str, float]) -> float:
        return float(self.inputs(described) @ self.weights)

    def prefer(self, a: Any, b: Any) -> float:
        """P(a runs faster than b), for two kernels doing the same work."""
        return 1.0 / (1.0 + math.exp(-(self.score(a) - self.score(b))))

    def rank_candidates(self, task: Any, codes: Sequence[str], labels: Sequence[str] | None = None,
                        sizes: dict | None = None) -> list[dict]:
        """Whole KernelBench candidates (Python modules with load_inline extensions), fastest
        first, each scored on the summed terms of everything it launches at the task's input shapes
        (`candidates.estimate`; `task`: a reference path, its source or a Task).  A candidate whose
        kernels exist but whose run could not be followed at all is placed at the middle of the
        others (`placed`: "median", no score), with its reason; those that are not candidates (no
        CUDA, Python that does not parse) come last.  `p_faster_than_next` is calibrated
        (`p_faster`).  Raises ValueError when the reference cannot be traced."""
        from .candidates import estimate, task_reference

        labels = list(labels) if labels is not None else [f"candidate {i}" for i in range(len(codes))]
        try:
            estimates = estimate(task_reference(task), list(codes), sizes, labels)
        except RuntimeError as exc:
            raise ValueError(str(exc)) from None
        scores = {i: self.score_terms(e.terms) for i, e in enumerate(estimates) if e.rankable}
        ranked = sorted(scores, key=lambda i: -scores[i])
        placed = [i for i, e in enumerate(estimates) if not e.rankable and _has_kernels(codes[i], e.reason)]
        middle = (len(ranked) + 1) // 2
        ranked = ranked[:middle] + placed + ranked[middle:]
        ranked += [i for i, e in enumerate(estimates) if not e.rankable and i not in placed]
        rows = []
        for place, i in enumerate(ranked):
            nxt = ranked[place + 1] if place + 1 < len(ranked) and ranked[place + 1] in scores else None
            p_next = None
            if i in scores and nxt is not None:
                p_next = self.p_faster(scores[i] - scores[nxt], estimates[i].guess or estimates[nxt].guess)
            rows.append({"rank": place + 1, "index": i, "label": labels[i], "score": scores.get(i),
                         "p_faster_than_next": p_next, "placed": "median" if i in placed else None,
                         **estimates[i].to_json()})
        return rows

    def p_faster(self, margin: float, guess: bool = False) -> float:
        """P(faster) for a score margin (score(a) - score(b)) between two whole candidates, calibrated:
        the logistic slope fitted on held-out pairs (`calibration` in the model: `slope`, and
        `guess_slope` where either estimate rests on a guess); the raw sigmoid without one."""
        cal = self.model.get("calibration") or {}
        slope = cal.get("guess_slope" if guess else "slope", 1.0)
        return 1.0 / (1.0 + math.exp(-slope * margin))

    def order(self, kernels: Sequence[Any]) -> list[int]:
        """Indices of `kernels`, predicted fastest first."""
        scores = [self.score(k) for k in kernels]
        return sorted(range(len(kernels)), key=lambda i: -scores[i])
