"""The last block's ticket: a branch that one block of the grid takes.

`ticket = atomicAdd(&done, 1); is_last = (ticket == gridDim.x - 1); __syncthreads(); if (is_last) {...}`
(cuda-samples' threadFenceReduction, and the fused reductions models write): every block draws a
distinct ticket, so exactly one block passes the test, whichever finishes last.  Its side reads all
the blocks' partial results; counted for every block (what an unknown condition gets), a 32,768-block
kernel's tail of 128 loads per thread raised its estimated loads from 58 us to 671.
"""

from __future__ import annotations

from .ir import Access, Branch, Kernel, statements
from .symbolic import Expr, Load, Op, Opaque, free_symbols, has_opaque, loads_in

# atomics whose results differ between calls (tickets) or that one caller wins (locks)
TICKETS = ("?atomicAdd", "?atomicSub", "?atomicInc", "?atomicDec", "?atomicCAS", "?atomicExch")


def is_ticket(expr: Expr) -> bool:
    """Is `expr` the value an atomic returned (the ticket itself, not a value computed from it)?"""
    return isinstance(expr, Opaque) and str(expr).startswith(TICKETS)


def grid_uniform(expr: Expr) -> bool:
    """The same in every thread of the grid, and known before the kernel runs (`gridDim.x - 1`, `n - 1`)."""
    return not loads_in(expr) and not has_opaque(expr) and \
        not any(name.startswith(("tid.", "bid.")) for name in free_symbols(expr))


def mark_last_block(kernel: Kernel) -> None:
    """Set `one_block` on the branches whose then side only the grid's last block to finish takes:
    a ticket compared with a grid-wide value, directly or through the scalar a thread stored it in."""
    stores: dict[str, list[Expr | None]] = {}
    loaded: dict[int, str] = {}
    for s, _ in statements(kernel):
        if isinstance(s, Access) and s.space in ("shared", "local"):
            if s.kind == "load":
                loaded[s.id] = s.array
            else:
                stores.setdefault(s.array, []).append(s.value if s.kind == "store" else None)

    def stored(expr: Expr) -> list[Expr | None]:
        return stores.get(loaded.get(expr.access_id, ""), [None]) if isinstance(expr, Load) else []

    def ticket(expr: Expr) -> bool:
        values = stored(expr)
        return is_ticket(expr) or (bool(values) and all(v is not None and is_ticket(v) for v in values))

    def one_block(condition: Expr) -> bool:
        if isinstance(condition, Op) and condition.name == "&&":
            return any(one_block(c) for c in condition.args)
        if isinstance(condition, Op) and condition.name == "==" and len(condition.args) == 2:
            a, b = condition.args
            return (ticket(a) and grid_uniform(b)) or (ticket(b) and grid_uniform(a))
        values = stored(condition)
        return bool(values) and all(v is not None and one_block(v) for v in values)

    for s, _ in statements(kernel):
        if isinstance(s, Branch) and s.kind == "if" and one_block(s.condition):
            s.one_block = True
