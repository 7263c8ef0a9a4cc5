"""Global-memory coalescing: 32-byte sectors per warp request.

A warp's load or store instruction is one request; the L1 fetches every 32-byte sector any
active lane touches.  That is what ``l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum``
over ``l1tex__t_requests_...`` measures.  Array bases are assumed 256-byte aligned, as
``cudaMalloc`` returns them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .memory import Executions
from .rows import distinct_per_row, sorted_rows

SECTOR = 32
BROADCAST_SHARING = 8  # lanes per distinct address at which an access counts as a broadcast


@dataclass
class Coalescing:
    pattern: str  # coalesced | strided | misaligned | broadcast | indirect | unknown
    sectors: float | None  # weighted total over executed requests
    ideal_sectors: float | None
    requests: float

    @property
    def sectors_per_request(self) -> float | None:
        if self.sectors is None or self.requests == 0:
            return None
        return self.sectors / self.requests


def coalescing(ex: Executions) -> Coalescing:
    """Sectors per request of the sampled executions; an address known only up to a warp-uniform part
    (`ex.stand_in`) keeps its `indirect`/`unknown` pattern and gets the sectors of that part at offset 0
    (aligned: at most one sector per request fewer than a misaligned one)."""
    requests = ex.requests
    address = ex.address if ex.address is not None else ex.stand_in
    if address is None:
        return Coalescing(ex.pattern or "unknown", None, None, requests)
    size = ex.access.size
    executed = ex.active.any(axis=1)
    if not executed.any():
        return Coalescing("coalesced", 0.0, 0.0, 0.0)
    active, w = ex.active[executed], ex.weight[executed]  # rows that send a request
    addr = np.where(active, address[executed], np.nan)
    ordered, new = sorted_rows(addr)
    sectors = _sectors(ordered, size)
    distinct = new.sum(axis=1)
    ideal = np.ceil(distinct * size / SECTOR)
    total, total_ideal = float((sectors * w).sum()), float((ideal * w).sum())
    lanes = active.sum(axis=1)
    if ex.address is None:
        pattern = ex.pattern
    elif np.all(distinct * BROADCAST_SHARING <= np.maximum(lanes, BROADCAST_SHARING)):
        pattern = "broadcast"
    elif total <= total_ideal * 1.0001:
        pattern = "coalesced"
    elif _misaligned(ordered, new, size, sectors, distinct, w):
        pattern = "misaligned"  # rows of consecutive elements, each shifted off sector boundaries
    else:
        pattern = "strided"
    return Coalescing(pattern, total, total_ideal, requests)


def _sectors(ordered: np.ndarray, size: int) -> np.ndarray:
    """Per row of sorted addresses (NaN last): the distinct sectors the elements touch.  Sector
    indices of sorted addresses are sorted too, so counting changes along the row suffices when no
    element straddles a sector boundary; otherwise first and last sectors are counted together."""
    first = np.floor(ordered / SECTOR)
    last = np.floor((ordered + size - 1) / SECTOR)
    if not np.array_equal(first, last, equal_nan=True):
        return distinct_per_row(np.concatenate([first, last], axis=1))
    change = ~np.isnan(first)
    change[:, 1:] &= first[:, 1:] != first[:, :-1]
    return change.sum(axis=1).astype(float)


def _misaligned(ordered: np.ndarray, new: np.ndarray, size: int, sectors: np.ndarray, distinct: np.ndarray,
                w: np.ndarray) -> bool:
    """Do most requests (by weight) form runs of consecutive elements that need more sectors only
    for starting off sector boundaries?  Asked only of accesses neither broadcast nor coalesced."""
    runs, run_sectors = _contiguous_runs(ordered, new, size)
    return bool((w * ((runs < distinct) & (sectors > run_sectors))).sum() >= 0.5 * w.sum())


def _contiguous_runs(ordered: np.ndarray, new: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row: how many runs of consecutive elements the distinct addresses form, and the sectors
    those runs would need if each started on a sector boundary."""
    nrows = ordered.shape[0]
    rows, cols = np.nonzero(new)  # distinct addresses, in order within each row
    values = ordered[rows, cols]
    start = np.ones(rows.size, dtype=bool)
    start[1:] = (rows[1:] != rows[:-1]) | (values[1:] - values[:-1] != size)
    run_id = np.cumsum(start) - 1
    run_length = np.bincount(run_id)
    run_row = rows[start]
    runs = np.bincount(run_row, minlength=nrows).astype(float)
    run_sectors = np.bincount(run_row, weights=np.ceil(run_length * size / SECTOR), minlength=nrows)
    return runs, run_sectors
