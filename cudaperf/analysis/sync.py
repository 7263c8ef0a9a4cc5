"""Synchronisation hazards of one kernel under one launch: the report's ``sync`` list.

Barriers some threads never reach, warp collectives whose full mask names lanes that are not
there, barriers that order nothing, atomics every lane aims at one address, and data races
(``races.py``).  Thread-divergence comes from the branch uniformity analysis: a condition is
*thread*-level when lanes of one warp may disagree on it for some argument values.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import networkx as nx

from .divergence import BranchUniformity
from .ir import Access, Barrier, Branch, Collective, Kernel, Loop, OpaqueMemory, walk
from .launch import Launch, dimensionality
from .races import races
from .sampling import Sampler

RACES = ("shared-race", "global-race", "implicit-warp-sync")
DIVERGENT_SYNCHRONISATION = ("barrier-divergence", "divergent-full-mask")
KINDS = (*DIVERGENT_SYNCHRONISATION, *RACES, "redundant-barrier", "atomic-contention")
# Blocks of two warps a race under a guessed block must also show in (per dimensionality of the
# kernel): a race only the default's extra threads or wider rows make is a guess, not a finding.
SMALL_BLOCKS = {1: ((64, 1, 1),), 2: ((8, 8, 1), (64, 1, 1)), 3: ((4, 4, 4), (64, 1, 1))}
BLOCK_CHECKED = ("shared-race", "global-race")


@dataclass(frozen=True)
class Hazard:
    kind: str  # one of KINDS (the lint rule of the same name reports it)
    line: int
    column: int
    message: str

    def to_json(self) -> dict:
        return {"kind": self.kind, "line": self.line, "column": self.column, "message": self.message}


def _divergent_guard(context: tuple, uniformity: dict[int, BranchUniformity],
                     levels: tuple[str, ...]) -> Branch | Loop | None:
    """The innermost enclosing branch or loop whose uniformity is one of `levels` (``thread``:
    lanes of a warp may disagree; ``warp``: warps of a block may), judged on thread dependence the
    analysis saw (an unknown value is not evidence of divergence)."""
    for item in reversed(context):
        stmt = item if isinstance(item, Loop) else item[0]
        result = uniformity.get(stmt.id)
        if result is not None and result.uniformity in levels and result.evident:
            return stmt
    return None


def _where(guard: Branch | Loop, uniformity: dict[int, BranchUniformity]) -> str:
    who = "threads" if uniformity[guard.id].uniformity == "thread" else "warps"
    if isinstance(guard, Loop):
        return f"in a loop whose trip count differs between {who} (`{guard.text}`, line {guard.line})"
    how = "after an early exit on" if guard.exits else "under"
    return f"{how} `{guard.text}` (line {guard.line}), which differs between {who}"


def barrier_divergence(kernel: Kernel, uniformity: dict[int, BranchUniformity]) -> Iterator[Hazard]:
    for stmt, context in walk(kernel.body):
        if isinstance(stmt, Barrier) and stmt.scope in ("block", "grid") and not stmt.counted:
            guard = _divergent_guard(context, uniformity, ("thread", "warp"))
            if guard is not None:
                yield Hazard("barrier-divergence", stmt.line, stmt.column,
                             f"`{stmt.name}` {_where(guard, uniformity)}")


def divergent_full_mask(kernel: Kernel, uniformity: dict[int, BranchUniformity]) -> Iterator[Hazard]:
    """A full-mask `*_sync` collective or `__syncwarp()` where some lanes may be absent: undefined
    behaviour (a hang or garbage) on Volta and later."""
    for stmt, context in walk(kernel.body):
        full = isinstance(stmt, Collective | Barrier) and stmt.full_mask and \
            (isinstance(stmt, Collective) or stmt.scope == "warp")
        guard = _divergent_guard(context, uniformity, ("thread",)) if full else None
        if guard is not None:
            yield Hazard("divergent-full-mask", stmt.line, stmt.column,
                         f"`{stmt.name}` with the full mask 0xffffffff {_where(guard, uniformity)}")


def _orders_memory(stmts: list) -> bool:
    return any(isinstance(s, Access | OpaqueMemory) and s.space in ("shared", "global", "unknown")
               for s, _ in walk(stmts))


def _redundant_in(body: list, in_loop: bool, ends_kernel: bool) -> Iterator[tuple[Barrier, Hazard | None]]:
    """Each block barrier of one statement list, with a hazard when no shared/global access
    happened since the previous barrier of the list (wrapping round for loop bodies), or none
    follows it when the list ends the kernel."""
    barriers = [i for i, s in enumerate(body) if isinstance(s, Barrier) and s.scope == "block"]
    for n, i in enumerate(barriers):
        previous = barriers[n - 1] if n else None
        before = body[previous + 1:i] if previous is not None else body[:i]
        if previous is None and in_loop:
            before = body[barriers[-1] + 1:] + before
        barrier, hazard = body[i], None
        if not _orders_memory(before) and (previous is not None or in_loop):
            hazard = Hazard("redundant-barrier", barrier.line, barrier.column,
                            f"`{barrier.name}` orders no shared or global access since the previous barrier")
        elif ends_kernel and not _orders_memory(body[i + 1:]):
            hazard = Hazard("redundant-barrier", barrier.line, barrier.column,
                            f"`{barrier.name}` ends the kernel: no access after it needs ordering")
        yield barrier, hazard


def redundant_barriers(kernel: Kernel) -> Iterator[Hazard]:
    """Barriers that order nothing wherever their source line runs (a macro or an unrolled loop
    puts one line at several places) and whose removal changes nothing else (Barrier.removable)."""
    lists = [(kernel.body, False, True)]
    for stmt, _ in walk(kernel.body):
        if isinstance(stmt, Loop):
            lists.append((stmt.body, True, False))
        elif isinstance(stmt, Branch):
            lists += [(stmt.then, False, False), (stmt.orelse, False, False)]
    found: dict[tuple[int, int], Hazard | None] = {}
    for body, in_loop, ends_kernel in lists:
        for barrier, hazard in _redundant_in(body, in_loop, ends_kernel):
            where = (barrier.line, barrier.column)
            keep = hazard is None or not barrier.removable or barrier.counted
            found[where] = None if keep or (where in found and found[where] is None) else hazard
    yield from (h for h in found.values() if h is not None)


def atomic_contention(broadcast_lanes: dict[int, float], kernel: Kernel) -> Iterator[Hazard]:
    """Atomics whose lanes all hit one address, with more than one lane per warp on average (one
    lane per warp, after a warp reduction, is the fix, not the smell)."""
    for access, _ in walk(kernel.body):
        if isinstance(access, Access) and access.kind == "atomic" and access.space == "global" and \
                broadcast_lanes.get(access.id, 0.0) >= 2:
            yield Hazard("atomic-contention", access.line, access.column,
                         f"`{access.text}`: all lanes of a warp update one address of `{access.array}`")


def _copied_axes(kernel: Kernel, launch: Launch) -> tuple[str, ...]:
    """Thread and block indices along axes the kernel never reads (no threadIdx/blockDim or
    blockIdx/gridDim component), unless the user gave the launch: threads or blocks along them
    would all do the same work, so races between them would only restate a guessed launch."""
    if launch.source == "cli":
        return ()
    return tuple(f"{index}.{a}" for index, size in (("tid", "bdim"), ("bid", "gdim")) for a in "xyz"
                 if not {f"{index}.{a}", f"{size}.{a}", f"{index}.linear"} & kernel.uses)


def _guessed_arguments(launch: Launch) -> frozenset[str]:
    """Scalar arguments whose values neither the user nor the host code gave."""
    return frozenset(f"arg:{name}" for name, source in launch.arg_sources.items() if source == "default")


def _races(kernel: Kernel, graph: nx.DiGraph, sampler: Sampler, launch: Launch) -> list[Hazard]:
    """Races under the launch; under a guessed block, `shared-race` and `global-race` only where
    every block of SMALL_BLOCKS races at the same line too (a kernel written for 8-wide blocks
    analysed as 16x16, a word only thread 256 would reach, a y extent the launch may not have)."""
    found = [Hazard(*race) for race in races(kernel, graph, sampler, _copied_axes(kernel, launch),
                                             _guessed_arguments(launch))]
    if "block" not in launch.guessed or not any(h.kind in BLOCK_CHECKED for h in found):
        return found
    for block in SMALL_BLOCKS[dimensionality(kernel)]:
        small = replace(launch, block=block)
        again = {(kind, line, column) for kind, line, column, _ in races(
            kernel, graph, Sampler(small), _copied_axes(kernel, small), _guessed_arguments(small))}
        found = [h for h in found if h.kind not in BLOCK_CHECKED or (h.kind, h.line, h.column) in again]
    return found


def hazards(kernel: Kernel, graph: nx.DiGraph, sampler: Sampler, launch: Launch,
            uniformity: dict[int, BranchUniformity], broadcast_lanes: dict[int, float]) -> list[Hazard]:
    """Every synchronisation hazard, in source order.  `uniformity` is per branch/loop id;
    `broadcast_lanes` gives, for accesses whose lanes share one address, the lanes per request."""
    found = [*barrier_divergence(kernel, uniformity), *divergent_full_mask(kernel, uniformity),
             *redundant_barriers(kernel), *atomic_contention(broadcast_lanes, kernel),
             *_races(kernel, graph, sampler, launch)]
    return sorted(set(found), key=lambda h: (h.line, h.column, KINDS.index(h.kind), h.message))
