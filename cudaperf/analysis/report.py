"""Kernel reports: the ``cudaperf.analyze/1`` JSON document and the flat feature vector.

Keys that later analyses fill (resources, occupancy, compute, DRAM bytes, sync findings) are
present and null/empty until then, never invented.  The keys the analyses fill and ``features``
(the named numeric vector that rewards and the ranker consume) come from the registered passes
(passes/), which also list the features' meanings (docs/features.md is generated from them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx

from . import passes
from .arch import Arch
from .banks import BankConflicts
from .coalescing import Coalescing
from .divergence import BranchUniformity
from .dram import Dram
from .ir import Access, Kernel
from .launch import Launch
from .memory import Executions
from .occupancy import Occupancy
from .resources import Resources
from .source import Diagnostic
from .sync import Hazard
from .work import PRECISIONS, Work

SCHEMA = "cudaperf.analyze/1"
SCHEMA_FILE = Path(__file__).with_name("data") / "analyze.schema.json"


def rounded(x: float | None, digits: int = 3) -> float | None:
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
        executed = ex.thread_executions * per_instruction
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
            "sectors_per_request": rounded(self.coalescing.sectors_per_request) if self.coalescing else None,
            "wavefronts_per_request": rounded(self.banks.wavefronts_per_request) if self.banks else None,
            "executions_per_thread": rounded(self.executions_per_thread, 4),
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
                "uniformity": self.result.uniformity, "divergent_fraction": rounded(self.result.divergent_fraction),
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
    results: dict[str, Any] = field(default_factory=dict)  # what passes returned, by name (passes.Pass.run)

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
            "global_load_sectors_per_request": rounded(self.sectors_per_request("load")),
            "global_store_sectors_per_request": rounded(self.sectors_per_request("store")),
            "shared_load_wavefronts_per_request": rounded(self.wavefronts_per_request("load")),
            "shared_store_wavefronts_per_request": rounded(self.wavefronts_per_request("store")),
            "dram_bytes_read": None if self.dram is None or self.dram.read is None else round(self.dram.read),
            "dram_bytes_write": None if self.dram is None or self.dram.write is None else round(self.dram.write),
            "dram_bytes_at_least": None if self.dram is None or self.dram.at_least is None
            else round(self.dram.at_least),
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
            **passes.fragments(self),
            "features": passes.features(self),
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
