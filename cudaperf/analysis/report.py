"""Kernel reports: the ``cudaperf.analyze/1`` JSON document and the flat feature vector.

Keys that later analyses fill (resources, occupancy, compute, DRAM bytes, sync findings) are
present and null/empty until then, never invented.  ``features`` is the named numeric vector
that rewards and the ranker consume; its names and meanings are listed in ``FEATURES`` (the
documentation in docs/features.md is generated from it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from .arch import Arch
from .banks import BankConflicts
from .coalescing import Coalescing
from .divergence import BranchUniformity
from .dram import Dram
from .ir import Access, Barrier, Kernel, Loop, walk
from .launch import Launch
from .memory import Executions
from .occupancy import Occupancy
from .resources import Resources
from .source import Diagnostic
from .sync import DIVERGENT_SYNCHRONISATION, RACES, Hazard
from .work import PRECISIONS, Work

SCHEMA = "cudaperf.analyze/1"
SCHEMA_FILE = Path(__file__).with_name("data") / "analyze.schema.json"


def _round(x: float | None, digits: int = 3) -> float | None:
    return None if x is None else round(float(x), digits)


@dataclass
class AccessReport:
    access: Access  # as written in the source
    requests: float  # warp-level instructions issued (fewer than source executions when vectorised)
    thread_executions: float  # source-level executions summed over threads
    executions_per_thread: float | None
    exact: bool
    instruction_bytes: int  # bytes per lane of the issued instruction
    pattern_override: str | None = None
    coalescing: Coalescing | None = None
    banks: BankConflicts | None = None
    merged: Coalescing | None = None  # with the other fields of its element issued alongside (fields.py)
    # under a guessed block, the same access judged under other plausible block shapes (shapes.py)
    shapes: list[tuple[tuple[int, int, int], AccessReport]] = field(default_factory=list)

    @classmethod
    def of(cls, access: Access, ex: Executions, total_threads: int, per_instruction: int = 1) -> AccessReport:
        executed = ex.thread_executions() * per_instruction
        per_thread = executed / total_threads if total_threads else None
        return cls(access, ex.requests, executed, per_thread, ex.exact, ex.access.size, ex.pattern)

    @property
    def pattern(self) -> str:
        if self.coalescing is not None:
            return self.coalescing.pattern
        if self.pattern_override:
            return self.pattern_override
        if self.banks is not None and self.banks.ways is not None:
            return "coalesced" if self.banks.ways <= 1.0001 else "strided"
        return "unknown"

    def to_json(self) -> dict:
        a = self.access
        return {
            "line": a.line, "column": a.column, "space": a.space, "kind": a.kind, "array": a.array,
            "bytes": a.size, "instruction_bytes": self.instruction_bytes, "pattern": self.pattern,
            "sectors_per_request": _round(self.coalescing.sectors_per_request) if self.coalescing else None,
            "wavefronts_per_request": _round(self.banks.wavefronts_per_request) if self.banks else None,
            "executions_per_thread": _round(self.executions_per_thread, 4),
            "index": str(a.offset), "text": a.text,
        }


@dataclass
class BranchReport:
    line: int
    kind: str  # if | select | case | loop
    condition: str
    result: BranchUniformity
    # compiled to a jump (loops, long bodies); nvcc turns short bodies into predicated instructions
    # and early exits into predicated EXITs, where lanes that disagree never split at a branch
    jump: bool = True

    def to_json(self) -> dict:
        return {"line": self.line, "kind": self.kind, "condition": self.condition,
                "uniformity": self.result.uniformity, "divergent_fraction": _round(self.result.divergent_fraction),
                "jump": self.jump}


def _ratio(parts: list[tuple[float | None, float]]) -> float | None:
    """Sum of numerators over sum of denominators, skipping terms whose numerator is unknown."""
    known = [(n, d) for n, d in parts if n is not None]
    den = sum(d for _, d in known)
    return sum(n for n, _ in known) / den if den > 0 else None


@dataclass
class KernelReport:
    kernel: Kernel
    launch: Launch
    accesses: list[AccessReport]
    branches: list[BranchReport]
    graph: nx.DiGraph
    exact: bool = True
    resources: Resources | None = None
    occupancy: Occupancy | None = None
    work: Work | None = None
    dram: Dram | None = None
    arch: Arch | None = None
    sync: list[Hazard] = field(default_factory=list)
    incomplete: str | None = None  # the phase that ran past the time budget (later ones were skipped)

    def _global(self, kind: str) -> list[AccessReport]:
        return [a for a in self.accesses if a.access.space == "global" and a.access.kind == kind]

    def _shared(self, kind: str) -> list[AccessReport]:
        return [a for a in self.accesses if a.access.space == "shared" and a.access.kind == kind]

    def sectors_per_request(self, kind: str) -> float | None:
        return _ratio([(a.coalescing.sectors, a.coalescing.requests) for a in self._global(kind) if a.coalescing])

    def wavefronts_per_request(self, kind: str) -> float | None:
        return _ratio([(a.banks.wavefronts, a.banks.requests) for a in self._shared(kind) if a.banks])

    def memory_json(self) -> dict:
        return {
            "global_load_sectors_per_request": _round(self.sectors_per_request("load")),
            "global_store_sectors_per_request": _round(self.sectors_per_request("store")),
            "shared_load_wavefronts_per_request": _round(self.wavefronts_per_request("load")),
            "shared_store_wavefronts_per_request": _round(self.wavefronts_per_request("store")),
            "dram_bytes_read": None if self.dram is None or self.dram.read is None else round(self.dram.read),
            "dram_bytes_write": None if self.dram is None or self.dram.write is None else round(self.dram.write),
            "accesses": [a.to_json() for a in self.accesses],
        }

    def compute_json(self) -> dict | None:
        """FLOPs, and where the kernel sits on the arch's roofline (FLOP per compulsory DRAM byte,
        dram.Dram.compulsory, against the ridge point of its dominant precision)."""
        if self.work is None:
            return None
        out = self.work.to_json()
        flops, dram = out["flops"], self.dram
        intensity = bound = None
        if flops is not None and dram is not None and dram.compulsory:
            intensity = flops / dram.compulsory
            dominant = max(PRECISIONS, key=lambda p: out[f"flops_{p}"] or 0)
            peak = self.arch.peak_tflops.get(dominant) or self.arch.peak_tflops["fp32"]
            bound = "compute" if intensity >= peak * 1e12 / (self.arch.dram_bandwidth_gbs * 1e9) else "memory"
        return {**out, "arithmetic_intensity": None if intensity is None else round(intensity, 4), "bound": bound}

    def to_json(self) -> dict:
        k = self.kernel
        launch = self.launch.to_json()
        launch["args"] = {name: {"value": _number(v), "source": self.launch.arg_sources.get(name, "cli")}
                          for name, v in self.launch.args.items()}
        return {
            "name": k.name, "line": k.line, "launch": launch,
            "resources": self.resources.to_json() if self.resources else None,
            "occupancy": self.occupancy.to_json() if self.occupancy else None,
            "memory": self.memory_json(),
            "compute": self.compute_json(),
            "branches": [b.to_json() for b in self.branches],
            "sync": [h.to_json() for h in self.sync],
            "features": features(self),
            "estimate_exact": self.exact,
        }


def _number(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


@dataclass
class FileReport:
    path: str
    diagnostics: list[Diagnostic]
    kernels: list[KernelReport]
    defined: list[str] = field(default_factory=list)  # every kernel the file defines, also those --kernel left out

    def to_json(self) -> dict:
        return {"path": self.path, "diagnostics": [d.to_json() for d in self.diagnostics],
                "kernels": [k.to_json() for k in self.kernels]}


def document(files: list[FileReport], arch: str) -> dict:
    return {"schema": SCHEMA, "arch": arch, "files": [f.to_json() for f in files]}


# ---------------------------------------------------------------- features

FEATURES: dict[str, str] = {
    "global_load_sectors_per_request": "32-byte sectors per executed global load request (0 without loads)",
    "global_store_sectors_per_request": "32-byte sectors per executed global store request (0 without stores)",
    "global_load_efficiency": "ideal over actual global load sectors, 0..1 (1 without loads)",
    "global_store_efficiency": "ideal over actual global store sectors, 0..1 (1 without stores)",
    "shared_load_wavefronts_per_request": "wavefronts per executed shared load request (0 without)",
    "shared_store_wavefronts_per_request": "wavefronts per executed shared store request (0 without)",
    "shared_efficiency": "ideal over actual shared wavefronts, loads and stores, 0..1 (1 without)",
    "global_requests_per_thread": "global load+store instructions executed per thread",
    "shared_requests_per_thread": "shared load+store instructions executed per thread",
    "atomic_requests_per_thread": "atomic instructions executed per thread",
    "indirect_access_fraction": "share of executed global requests with data-dependent addresses",
    "uncoalesced_access_fraction": "share of executed global requests that are strided or misaligned",
    "vector_access_fraction": "share of executed global requests moving >= 8 bytes per thread",
    "thread_divergent_branches": "branches and loop conditions that may differ inside a warp",
    "divergent_warp_fraction": "share of executing warps, over all branches, whose lanes disagree",
    "branches": "conditional branches and loop conditions (including early exits) in the kernel",
    "loops": "loops in the kernel (after inlining)",
    "max_loop_depth": "deepest loop nesting",
    "unrolled_loops": "loops with #pragma unroll",
    "barriers": "block-level barriers in the source",
    "barriers_in_loops": "block-level barriers inside loops",
    "shared_arrays": "shared-memory arrays declared",
    "uses_dynamic_shared": "1 if the kernel declares extern (dynamic) shared memory",
    "block_threads": "threads per block of the analysed launch",
    "grid_blocks": "blocks of the analysed launch",
    "registers_per_thread": "registers per thread (ptxas, or the estimate)",
    "occupancy_theoretical": "theoretical occupancy under the launch, 0..1",
    "flops_per_thread": "FLOPs per launched thread (add + mul + 2 x fma, all precisions; 0 when unknown)",
    "dram_bytes_per_thread": "DRAM bytes read and written per launched thread (0 when unknown)",
    "arithmetic_intensity": "FLOP per compulsory DRAM byte: reads and every written byte (0 when unknown)",
    "races": "racing access pairs found (shared-race, global-race, implicit-warp-sync)",
    "divergent_synchronisation": "barriers or full-mask warp collectives that some threads may not reach",
    "redundant_barriers": "block barriers that order no memory access",
    "contended_atomics": "atomics every lane of a warp applies to one global address",
}


def features(report: KernelReport) -> dict[str, float]:
    """The flat, named vector rewards and the ranker consume (see FEATURES)."""
    acc = report.accesses
    threads = report.launch.threads_per_block * report.launch.blocks or 1
    glob = [a for a in acc if a.access.space == "global" and a.access.kind != "atomic"]
    shared = [a for a in acc if a.access.space == "shared"]

    def efficiency(items, actual, ideal) -> float:
        pairs = [(actual(a), ideal(a)) for a in items if actual(a)]
        total = sum(p[0] for p in pairs)
        return sum(p[1] for p in pairs) / total if total else 1.0

    greq = sum(a.requests for a in glob) or 0.0
    loops = [s for s, _ in walk(report.kernel.body) if isinstance(s, Loop)]
    depth = max((sum(isinstance(x, Loop) for x in ctx) + 1 for s, ctx in walk(report.kernel.body)
                 if isinstance(s, Loop)), default=0)
    barriers = [(s, ctx) for s, ctx in walk(report.kernel.body) if isinstance(s, Barrier) and s.scope == "block"]
    executing = [b.result.divergent_fraction for b in report.branches if b.result.divergent_fraction is not None]
    compute = report.compute_json() or {}
    flops = compute.get("flops")
    dram = report.dram
    dram_bytes = (dram.read + dram.write) if dram is not None and dram.read is not None else 0.0
    return {
        "global_load_sectors_per_request": _round(report.sectors_per_request("load")) or 0.0,
        "global_store_sectors_per_request": _round(report.sectors_per_request("store")) or 0.0,
        "global_load_efficiency": _round(efficiency([a for a in glob if a.access.kind == "load" and a.coalescing],
                                                    lambda a: a.coalescing.sectors,
                                                    lambda a: a.coalescing.ideal_sectors)),
        "global_store_efficiency": _round(efficiency([a for a in glob if a.access.kind == "store" and a.coalescing],
                                                     lambda a: a.coalescing.sectors,
                                                     lambda a: a.coalescing.ideal_sectors)),
        "shared_load_wavefronts_per_request": _round(report.wavefronts_per_request("load")) or 0.0,
        "shared_store_wavefronts_per_request": _round(report.wavefronts_per_request("store")) or 0.0,
        "shared_efficiency": _round(efficiency([a for a in shared if a.banks], lambda a: a.banks.wavefronts,
                                               lambda a: a.banks.ideal_wavefronts)),
        "global_requests_per_thread": _round(sum(a.requests for a in glob) * 32 / threads, 4),
        "shared_requests_per_thread": _round(sum(a.requests for a in shared) * 32 / threads, 4),
        "atomic_requests_per_thread": _round(
            sum(a.requests for a in acc if a.access.kind == "atomic") * 32 / threads, 4),
        "indirect_access_fraction": _round(sum(a.requests for a in glob if a.pattern == "indirect") / greq
                                           if greq else 0.0),
        "uncoalesced_access_fraction": _round(sum(a.requests for a in glob if a.pattern in ("strided", "misaligned"))
                                              / greq if greq else 0.0),
        "vector_access_fraction": _round(sum(a.requests for a in glob if a.access.size >= 8) / greq if greq else 0.0),
        "thread_divergent_branches": float(sum(b.result.uniformity == "thread" for b in report.branches)),
        "divergent_warp_fraction": _round(sum(executing) / len(executing) if executing else 0.0),
        "branches": float(len(report.branches)),
        "loops": float(len(loops)),
        "max_loop_depth": float(depth),
        "unrolled_loops": float(sum(1 for loop in loops if loop.unroll is not None)),
        "barriers": float(len(barriers)),
        "barriers_in_loops": float(sum(1 for _, ctx in barriers if any(isinstance(x, Loop) for x in ctx))),
        "shared_arrays": float(len(report.kernel.shared)),
        "uses_dynamic_shared": float(any(s.dynamic for s in report.kernel.shared)),
        "block_threads": float(report.launch.threads_per_block),
        "grid_blocks": float(report.launch.blocks),
        "registers_per_thread": float(report.resources.registers_per_thread) if report.resources else 0.0,
        "occupancy_theoretical": _round(report.occupancy.theoretical) if report.occupancy else 0.0,
        "flops_per_thread": _round((flops or 0.0) / threads, 4),
        "dram_bytes_per_thread": _round(dram_bytes / threads, 4),
        "arithmetic_intensity": _round(compute.get("arithmetic_intensity") or 0.0, 4),
        "races": float(sum(h.kind in RACES for h in report.sync)),
        "divergent_synchronisation": float(sum(h.kind in DIVERGENT_SYNCHRONISATION for h in report.sync)),
        "redundant_barriers": float(sum(h.kind == "redundant-barrier" for h in report.sync)),
        "contended_atomics": float(sum(h.kind == "atomic-contention" for h in report.sync)),
    }
