"""Accesses to the fields of one element of an aligned vector or struct type, taken together.

`p[i].x`, `p[i].y`, `p[i].z` of a `uchar4` are three field loads in the source, and one 4-byte
load per lane for nvcc: the element is aligned to its size, so the compiler reads it whole.  A
whole-object copy of a type wider than 16 bytes (`double4 v = p[i]`) is lowered member by
member, and issued as 16-byte moves that together use every byte of the sectors they touch.
Judged one field at a time, such accesses look strided (a quarter of each sector used); judged
together, the sectors fetched are the bytes used.  Loads of two or more fields of one element
merge (reading the fields not named is harmless); stores merge only when they write the whole
element (three byte stores of a `uchar4` stay three partial stores).  The merged figure is kept
beside the access's own (`AccessReport.merged`) for the uncoalesced-access rule; the traffic and
request counts are unchanged.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import replace

from .coalescing import Coalescing, coalescing
from .ir import Kernel, Loop
from .memory import executions
from .report import AccessReport
from .sampling import Sampler
from .symbolic import ZERO, Const, Expr, Op, lift, op

MOVE_BYTES = 16  # widest global move a lane issues on sm_90


def _split(offset: Expr) -> tuple[Expr, float]:
    """`base + c` as (base, c)."""
    if isinstance(offset, Const):
        return ZERO, offset.value
    if isinstance(offset, Op) and offset.name == "+" and isinstance(offset.args[1], Const):
        return offset.args[0], offset.args[1].value
    return offset, 0.0


def _context_key(context: tuple) -> tuple:
    return tuple(c.id if isinstance(c, Loop) else (c[0].id, c[1]) for c in context)


def merge_fields(kernel: Kernel, contexts: dict[int, tuple], sampler: Sampler, reports: list[AccessReport],
                 loops: dict[str, Loop]) -> None:
    """Set `merged` on global field accesses that issue together with their siblings."""
    elements = {p.name: p.type for p in kernel.params if p.pointer}
    groups: dict[tuple, list[tuple[AccessReport, float]]] = defaultdict(list)
    for r in reports:
        a, t = r.access, elements.get(r.access.array)
        if a.space != "global" or a.kind == "atomic" or t is None or not t.fields or a.size >= t.size \
                or t.size > 2 * MOVE_BYTES \
                or t.align < min(t.size, MOVE_BYTES) or t.size % min(t.size, MOVE_BYTES) or a.id not in contexts:
            continue
        base, const = _split(a.offset)
        if not math.isfinite(const):
            continue
        groups[(a.array, a.kind, str(base), const // t.size, _context_key(contexts[a.id]))].append((r, const))
    for members in groups.values():
        t = elements[members[0][0].access.array]
        start = members[0][1] - members[0][1] % t.size
        covered = set()
        for r, const in members:
            covered.update(range(int(const - start), int(const - start) + r.access.size))
        if len({const for _, const in members}) < 2 or \
                (members[0][0].access.kind == "store" and covered != set(range(t.size))):
            continue
        first = members[0][0].access
        base = _split(first.offset)[0]
        wide = replace(first, offset=op("+", base, lift(start)) if start else base, size=t.size)
        merged: Coalescing = coalescing(executions(wide, sampler.batch(contexts[first.id]), None, loops))
        for r, _ in members:
            r.merged = merged
