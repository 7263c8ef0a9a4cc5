"""What every memory analysis needs first: an access's executions under a launch.

Evaluates an access's byte offset on the sampled batch of its context and says whether the
address is computable (else `indirect` for data-dependent indices, `unknown` otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .ir import Access
from .sampling import Batch, evaluate_on
from .symbolic import has_opaque, loads_in


@dataclass
class Executions:
    access: Access
    active: np.ndarray  # bool (rows, 32)
    weight: np.ndarray  # (rows,)
    address: np.ndarray | None  # byte offsets (rows, 32); None when not computable
    pattern: str | None  # "indirect" | "unknown" when the address is not computable
    exact: bool

    @property
    def requests(self) -> float:
        """Warp-level instructions executed (rows with at least one active lane, weighted)."""
        return float(self.weight[self.active.any(axis=1)].sum())

    def thread_executions(self) -> float:
        return float((self.active.sum(axis=1) * self.weight).sum())


def executions(access: Access, batch: Batch) -> Executions:
    if loads_in(access.offset):
        return Executions(access, batch.active, batch.weight, None, "indirect", batch.exact)
    if has_opaque(access.offset):
        return Executions(access, batch.active, batch.weight, None, "unknown", batch.exact)
    address = evaluate_on(access.offset, batch)
    if np.isnan(address[batch.active]).any():
        return Executions(access, batch.active, batch.weight, None, "unknown", batch.exact)
    return Executions(access, batch.active, batch.weight, address, None, batch.exact)


def active_rows(ex: Executions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row index, lane index, address) of every active lane."""
    rows, lanes = np.nonzero(ex.active)
    return rows, lanes, ex.address[rows, lanes]
