"""Synchronisation hazards other than races: barriers and full-mask warp collectives that some
threads may not reach, barriers that order nothing, and contended atomics (sync.py)."""

from __future__ import annotations

from typing import ClassVar

from ..report import KernelReport
from ..sync import DIVERGENT_SYNCHRONISATION, KINDS, hazards, in_order
from . import Context, Feature, Pass, register


@register
class Sync(Pass):
    name = "sync"
    phase = "synchronisation"
    requires = ("memory", "branches")  # broadcast lanes of atomics, uniformity of the branches around barriers
    key = "sync"  # the races pass adds its hazards here too
    schema: ClassVar[dict] = {"property": {
        "type": "array",
        "items": {"type": "object",
                  "required": ["kind", "line", "column", "message"],
                  "additionalProperties": False,
                  "properties": {"kind": {"enum": list(KINDS)},
                                 "line": {"type": "integer", "minimum": 1},
                                 "column": {"type": "integer", "minimum": 1},
                                 "message": {"type": "string"}}}}}
    features = (
        Feature("divergent_synchronisation", "barriers or full-mask warp collectives that some threads may not reach",
                lambda r: float(sum(h.kind in DIVERGENT_SYNCHRONISATION for h in r.sync))),
        Feature("redundant_barriers", "block barriers that order no memory access",
                lambda r: float(sum(h.kind == "redundant-barrier" for h in r.sync))),
        Feature("contended_atomics", "atomics every lane of a warp applies to one global address",
                lambda r: float(sum(h.kind == "atomic-contention" for h in r.sync)), ranked=True),
    )

    def run(self, ctx: Context) -> None:
        report = ctx.report
        broadcast = {a.access.id: a.thread_executions / a.requests for a in report.accesses
                     if a.pattern == "broadcast" and a.requests}
        found = hazards(report.kernel, report.graph, report.launch, report.results["branches"], broadcast,
                        report.arch.aggregated_atomics, races=False)
        report.sync[:] = in_order([*report.sync, *found])

    def to_json(self, report: KernelReport) -> list:
        return [h.to_json() for h in report.sync]
