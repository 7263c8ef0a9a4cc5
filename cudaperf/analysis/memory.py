"""What every memory analysis needs first: an access's executions under a launch.

Evaluates an access's byte offset on the sampled batch of its context and says whether the
address is computable (else `indirect` for data-dependent indices, `unknown` otherwise).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, reduce

import numpy as np

from .divergence import Dependence, disagrees
from .ir import Access, Loop
from .sampling import Batch, evaluate_on
from .symbolic import Const, Expr, Load, Op, Opaque, Sym, free_symbols, has_opaque, loads_in, op, substitute


@dataclass
class Executions:
    access: Access
    active: np.ndarray  # bool (rows, 32): lanes that perform the access
    weight: np.ndarray  # (rows,)
    address: np.ndarray | None  # byte offsets (rows, 32); None when not computable
    pattern: str | None  # "indirect" | "unknown" when the address is not computable
    exact: bool
    issued: np.ndarray | None = None  # bool (rows,): warps issuing the instruction (predication)
    # byte offsets with the address's warp-uniform data-dependent part left out (`table[idx * D + lane]`,
    # `idx` loaded once per warp): the sectors a request touches, not where; None unless that is all
    # that cannot be computed
    stand_in: np.ndarray | None = None

    @cached_property
    def requests(self) -> float:
        """Warp-level instructions executed, weighted: rows with an active lane, or every row that
        issues the instruction when it is predicated (see predication.py).  Kept: the access
        report, the coalescing and the bank conflicts each ask."""
        issued = self.issued if self.issued is not None else self.active.any(axis=1)
        return float(self.weight[issued].sum())

    @cached_property
    def thread_executions(self) -> float:
        """Lane executions, weighted.  Kept: accesses alike share one Executions (passes/memory.py)."""
        return float((self.active.sum(axis=1) * self.weight).sum())


def data_dependent(expr: Expr, loops: dict[str, Loop]) -> bool:
    """Does the value depend on loaded data, directly or through a loop counter whose start or
    step is loaded (a CSR row loop `for (j = ptr[r]; ...)`)?  A loaded bound alone
    (`j < len[r]`) leaves the counter's values known: only the trip count is data."""
    seen: set[str] = set()
    pending = [expr]
    while pending:
        e = pending.pop()
        if loads_in(e):
            return True
        for name in free_symbols(e):
            if name in loops and name not in seen:
                seen.add(name)
                loop = loops[name]
                pending.extend((loop.init, loop.update))
    return False


def _computable(expr: Expr) -> bool:
    return not loads_in(expr) and not has_opaque(expr)


def _terms(expr: Expr, scale: float = 1.0) -> list[tuple[Expr, float]]:
    """The additive terms of a byte offset, each with its constant factor, products by what can be
    computed distributed (`((r + lane) * N) * 4`: `r * N` times 4, `lane * N` times 4)."""
    if isinstance(expr, Op) and len(expr.args) == 2:
        a, b = expr.args
        if expr.name == "+":
            return _terms(a, scale) + _terms(b, scale)
        if expr.name == "-":
            return _terms(a, scale) + _terms(b, -scale)
        if expr.name == "*":
            if isinstance(b, Const):
                return _terms(a, scale * b.value)
            if isinstance(a, Const):
                return _terms(b, scale * a.value)
            for factor, other in ((b, a), (a, b)):
                if _computable(factor) and not _computable(other):
                    return [(op("*", t, factor), k) for t, k in _terms(other, scale)]
    return [(expr, scale)]


def _stood_in(expr: Expr, batch: Batch, dependence: Dependence, seen: dict, depth: int = 0) -> Expr | None:
    """`expr` with each load whose address is one per warp, and each opaque value that varies no wider
    than a warp, replaced by a nonzero constant (what they hold is one value per warp; the constant
    keeps `stride * lane` varying); None when one of them may vary across a warp's lanes.  `seen`
    holds the answers already found for this batch: unrolled code shares subexpressions, and walking
    them as a tree grows exponentially."""
    if depth > 16:
        return None
    if isinstance(expr, Sym):   # a loop counter started from loaded data (`j = ptr[r]`): unknown, uniform or not
        unseen = expr.name in batch.env and np.isnan(batch.env[expr.name]).any()
        return expr if not unseen else _STAND_IN if _uniform_counter(expr, batch, dependence, seen, depth) else None
    if not isinstance(expr, (Load, Opaque, Op)):
        return expr
    key = (("load", expr.access_id) if isinstance(expr, Load) else id(expr), depth)
    if key not in seen:  # the expression is kept with its answer, so that its id is not reused
        seen[key] = (expr, _stood_in_fresh(expr, batch, dependence, seen, depth))
    return seen[key][1]


def _stood_in_fresh(expr: Load | Opaque | Op, batch: Batch, dependence: Dependence, seen: dict,
                    depth: int) -> Expr | None:
    if isinstance(expr, Load):
        access = dependence.accesses.get(expr.access_id)
        uniform = access is not None and warp_uniform(access.offset, batch, dependence, seen, depth + 1)
        return _STAND_IN if uniform else None
    if isinstance(expr, Opaque):
        return _STAND_IN if dependence.level(expr) <= 2 else None
    if expr.name == "warp_uniform" or (expr.name == "shfl_idx" and _whole_warp_broadcast(expr, batch, dependence,
                                                                                         seen, depth)):
        return _STAND_IN  # a vote, or one lane's value read by every lane (`__shfl_sync(m, row, 0)`)
    args = []
    for a in expr.args:
        stood = _stood_in(a, batch, dependence, seen, depth)
        if stood is None:
            return None
        args.append(stood)
    return op(expr.name, *args, is_int=expr.is_int)


_STAND_IN = Const(1.5, False)


def _uniform_counter(counter: Sym, batch: Batch, dependence: Dependence, seen: dict, depth: int) -> bool:
    """Is a loop counter the sampler could not compute one value per warp?  By the kernel's dependence
    levels, or where its start, update and condition are with the counter taken as one (`j = ptr[b]` with
    `b = i / 256`: one row per warp by arithmetic, which the levels do not see)."""
    if dependence.level(counter) <= 2:
        return True
    parts = dependence.cycles.get(counter.name)
    if not parts:
        return False
    held = {counter.name: _STAND_IN}
    return all(warp_uniform(substitute(part, held), batch, dependence, seen, depth + 1) for part in parts)


def _whole_warp_broadcast(shfl: Op, batch: Batch, dependence: Dependence, seen: dict, depth: int) -> bool:
    """`__shfl_sync` over the whole warp from a source lane that is one value per warp."""
    _, source, width = shfl.args
    return isinstance(width, Const) and width.value >= 32 and \
        warp_uniform(source, batch, dependence, seen, depth + 1)


def warp_uniform(expr: Expr, batch: Batch, dependence: Dependence, seen: dict, depth: int = 0) -> bool:
    """Is `expr` one value across the active lanes of every sampled warp?  Its loads must read one
    address per warp (`ids[blockIdx.x * blockDim.y + threadIdx.y]` under a 32-wide block does;
    `ids[tid]` does not) and what they feed must not vary otherwise (`ids[0] * lane` does); an opaque
    value is judged by the kernel's dependence levels.  `seen`: see `_stood_in`."""
    probe = _stood_in(expr, batch, dependence, seen, depth)
    if probe is None:
        return False
    values, active = evaluate_on(probe, batch), batch.active
    rows = active.any(axis=1)
    return bool(rows.any() and np.isfinite(values[active]).all() and not disagrees(values, active)[rows].any())


def uniform_stand_in(offset: Expr, loops: dict[str, Loop], uniform: Callable[[Expr], bool]) -> Expr | None:
    """`offset` without its terms that cannot be computed but are one value across a warp (`uniform`:
    a row index loaded once per warp, a block's decoded tile), when every other term can be: what
    decides the sectors of a request.  None when nothing was left out or a per-thread term cannot."""
    kept: list[Expr] = []
    dropped = False
    for term, scale in _terms(offset):
        if _computable(term) and not data_dependent(term, loops):
            kept.append(term if scale == 1.0 else op("*", term, Const(scale, term.is_int)))
        elif uniform(term):
            dropped = True
        else:
            return None
    if not dropped:
        return None
    return reduce(lambda a, b: op("+", a, b), kept) if kept else Const(0.0)


def executions(access: Access, batch: Batch, issuing: Batch | None = None,
               loops: dict[str, Loop] | None = None, per_instruction: int = 1,
               dependence: Dependence | None = None) -> Executions:
    """`issuing` is the batch of the context whose warps issue the instruction (same rows as
    `batch`, wider masks) when predicated branches enclose the access; `loops` maps loop counter
    symbols to their loops; `per_instruction` source executions merge into one instruction
    (vectorisation, see vectorize.py); `dependence` (the kernel's), when given, lets an address whose
    only unknowns are warp-uniform keep its sectors (`uniform_stand_in`)."""
    issued = issuing.active.any(axis=1) if issuing is not None else None
    pattern = "indirect" if data_dependent(access.offset, loops or {}) else \
        "unknown" if has_opaque(access.offset) else None
    address = stand_in = None
    if pattern is None:
        address = evaluate_on(access.offset, batch)
        if np.isnan(address[batch.active]).any():
            pattern, address = "unknown", None
    if pattern is not None and dependence is not None:
        seen: dict = {}
        partial = uniform_stand_in(access.offset, loops or {}, lambda t: warp_uniform(t, batch, dependence, seen))
        if partial is not None:
            stand_in = evaluate_on(partial, batch)
            stand_in = None if np.isnan(stand_in[batch.active]).any() else stand_in
    return Executions(access, batch.active, batch.weight / per_instruction, address, pattern, batch.exact, issued,
                      stand_in)
