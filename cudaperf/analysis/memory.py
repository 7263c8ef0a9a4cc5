"""What every memory analysis needs first: an access's executions under a launch.

Evaluates an access's byte offset on the sampled batch of its context and says whether the
address is computable (else `indirect` for data-dependent indices, `unknown` otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .ir import Access, Loop
from .sampling import Batch, evaluate_on
from .symbolic import Expr, free_symbols, has_opaque, loads_in


@dataclass
class Executions:
    access: Access
    active: np.ndarray  # bool (rows, 32): lanes that perform the access
    weight: np.ndarray  # (rows,)
    address: np.ndarray | None  # byte offsets (rows, 32); None when not computable
    pattern: str | None  # "indirect" | "unknown" when the address is not computable
    exact: bool
    issued: np.ndarray | None = None  # bool (rows,): warps issuing the instruction (predication)

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


def executions(access: Access, batch: Batch, issuing: Batch | None = None,
               loops: dict[str, Loop] | None = None, per_instruction: int = 1) -> Executions:
    """`issuing` is the batch of the context whose warps issue the instruction (same rows as
    `batch`, wider masks) when predicated branches enclose the access; `loops` maps loop counter
    symbols to their loops; `per_instruction` source executions merge into one instruction
    (vectorisation, see vectorize.py)."""
    issued = issuing.active.any(axis=1) if issuing is not None else None
    pattern = "indirect" if data_dependent(access.offset, loops or {}) else \
        "unknown" if has_opaque(access.offset) else None
    address = None
    if pattern is None:
        address = evaluate_on(access.offset, batch)
        if np.isnan(address[batch.active]).any():
            pattern, address = "unknown", None
    return Executions(access, batch.active, batch.weight / per_instruction, address, pattern, batch.exact, issued)
