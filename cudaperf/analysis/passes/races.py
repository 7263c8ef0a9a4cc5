"""Races: pairs of accesses to one shared or global array, one a store, that no barrier orders,
joined on the sampled lanes of the first blocks (races.py).  Its hazards go to the `sync` key."""

from __future__ import annotations

from ..sync import RACES, hazards, in_order
from . import Context, Feature, Pass, register


@register
class Races(Pass):
    name = "races"
    phase = "synchronisation"
    features = (Feature("races", "racing access pairs found (shared-race, global-race, implicit-warp-sync)",
                        lambda r: float(sum(h.kind in RACES for h in r.sync))),)

    def run(self, ctx: Context) -> None:
        report = ctx.report
        found = hazards(report.kernel, report.graph, report.launch, {}, {}, report.arch.aggregated_atomics,
                        others=False)
        report.sync[:] = in_order([*report.sync, *found])
