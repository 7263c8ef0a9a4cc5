"""The rows of compressed-row loops, from the lengths of the arrays they walk.

`for (j = ptr[r]; j < ptr[r + 1]; ++j) ... col[j] ...` (a CSR row, an embedding bag's offsets, a segment's
members) runs as often as the data says; the sampler cannot read `ptr` and takes such a loop as one
iteration.  Where the caller knows how many bytes each pointer argument reaches (`Launch.extents`: a traced
launch's tensors), an average row holds the entries over the rows: the elements of the arrays the counter
indexes over the rows `ptr` delimits (its elements less one), and the sampler runs the loop that many
entries over its counter's step (`j += 32` in a warp per row: a 32nd each).  Only the loop whose bounds
are two neighbouring elements of one array is read so; every other loop on data keeps the sampler's
default."""

from __future__ import annotations

import networkx as nx

from . import graph as access_graph
from .ir import Access, Loop
from .symbolic import Expr, Op, Sym, evaluate, free_symbols, loads_in


def _row_bounds(loop: Loop, accesses: dict[int, Access]) -> Access | None:
    """The access of `ptr[r]` when the loop runs from it to below `ptr[r + 1]` (the same array, one
    element on), else None."""
    condition = loop.condition
    if not (isinstance(condition, Op) and condition.name in ("<", ">")):
        return None
    counter, bound = condition.args if condition.name == "<" else condition.args[::-1]
    starts = [accesses.get(x.access_id) for x in loads_in(loop.init)]
    ends = [accesses.get(x.access_id) for x in loads_in(bound)]
    if not _counter_side(counter, loop.counter) or len(starts) != 1 or len(ends) != 1:
        return None
    start, end = starts[0], ends[0]
    if start is None or end is None or start.array != end.array or not _one_element_on(start, end):
        return None
    return start


def _counter_side(side: Expr, counter: str) -> bool:
    """Is `side` the counter, or the counter plus or minus a term without it and without data (`k + groups <
    end`: a block's groups taking every other pair of a bag's entries)?"""
    if isinstance(side, Sym):
        return side.name == counter
    return isinstance(side, Op) and side.name in ("+", "-") and not loads_in(side) and \
        isinstance(side.args[0], Sym) and side.args[0].name == counter and \
        all(counter not in free_symbols(a) for a in side.args[1:])


def _one_element_on(start: Access, end: Access) -> bool:
    """Is `end`'s offset `start`'s plus one element (`ptr[r + 1]` beside `ptr[r]`), whatever `r` is?"""
    names = sorted(free_symbols(start.offset) | free_symbols(end.offset))
    gaps = set()
    for values in ((3.0, 5.0, 7.0, 11.0), (13.0, 17.0, 19.0, 23.0)):
        env = {name: values[i % 4] + i for i, name in enumerate(names)}
        gaps.add(float(evaluate(end.offset, env)) - float(evaluate(start.offset, env)))
    return gaps == {float(start.size)}


def compressed_rows(g: nx.DiGraph, extents: dict[str, int]) -> list[tuple[Loop, Access, float]]:
    """Each compressed-row loop whose arrays' lengths `extents` gives: the loop, its `ptr[r]` access and
    the entries of an average row."""
    if not extents:
        return []
    placed = list(access_graph.accesses(g))
    accesses = {a.id: a for a, _ in placed}
    found = []
    for loop, _ in access_graph.statements(g, Loop):
        start = _row_bounds(loop, accesses)
        if start is None or start.array not in extents:
            continue
        rows = extents[start.array] // start.size - 1
        walked = [extents[a.array] // a.size for a, context in placed
                  if any(c is loop for c in context) and a.array in extents and a.array != start.array
                  and loop.counter in free_symbols(a.offset) and a.kind == "load"]
        if rows > 0 and walked:
            found.append((loop, start, max(1.0, min(walked) / rows)))
    return found


def row_spans(rows: list[tuple[Loop, Access, float]]) -> dict[int, float]:
    """Loop id -> the entries of an average row (the sampler divides them by the counter's step), for each
    compressed row (`compressed_rows`)."""
    return {loop.id: span for loop, _, span in rows}


def pointer_fills(g: nx.DiGraph, rows: list[tuple[Loop, Access, float]]) -> dict[int, tuple[Expr, int, float]]:
    """Load id -> (offset, element bytes, entries per row) for every load of a compressed row's pointer
    array (`compressed_rows`) that the kernel does not write: the sampler reads `ptr[r]` as `r` whole rows of
    the average length (`Sampler.fills`), so what is computed from the row's bounds (`n = min(ptr[r + 1] - c,
    CHUNK)`, the trips of a loop over a staged chunk) follows the same even split the row loop assumes."""
    if not rows:
        return {}
    spans = {start.array: span for _, start, span in rows}
    placed = [a for a, _ in access_graph.accesses(g)]
    written = {a.array for a in placed if a.kind != "load"}
    return {a.id: (a.offset, a.size, spans[a.array]) for a in placed
            if a.array in spans and a.array not in written and a.kind == "load" and a.size > 0}
