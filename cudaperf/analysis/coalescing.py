"""Global-memory coalescing: 32-byte sectors per warp request.

A warp's load or store instruction is one request; the L1 fetches every 32-byte sector any
active lane touches.  That is what ``l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum``
over ``l1tex__t_requests_...`` measures.  Array bases are assumed 256-byte aligned, as
``cudaMalloc`` returns them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .memory import Executions, active_rows
from .rows import distinct_per_row

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
    requests = ex.requests
    if ex.address is None:
        return Coalescing(ex.pattern or "unknown", None, None, requests)
    size = ex.access.size
    nrows = ex.active.shape[0]
    rows, _, addr = active_rows(ex)
    if rows.size == 0:
        return Coalescing("coalesced", 0.0, 0.0, 0.0)
    first = np.floor(addr / SECTOR)
    last = np.floor((addr + size - 1) / SECTOR)
    sectors = distinct_per_row(np.concatenate([rows, rows]), np.concatenate([first, last]), nrows)
    distinct = distinct_per_row(rows, addr, nrows)
    ideal = np.ceil(distinct * size / SECTOR)
    runs, run_sectors = _contiguous_runs(rows, addr, size, nrows)
    executed = ex.active.any(axis=1)
    w = ex.weight * executed
    total, total_ideal = float((sectors * w).sum()), float((ideal * w).sum())
    lanes = ex.active.sum(axis=1)
    if np.all(distinct[executed] * BROADCAST_SHARING <= np.maximum(lanes[executed], BROADCAST_SHARING)):
        pattern = "broadcast"
    elif total <= total_ideal * 1.0001:
        pattern = "coalesced"
    elif (w * ((runs < distinct) & (sectors > run_sectors))).sum() >= 0.5 * w.sum():
        pattern = "misaligned"  # rows of consecutive elements, each shifted off sector boundaries
    else:
        pattern = "strided"
    return Coalescing(pattern, total, total_ideal, requests)


def _contiguous_runs(rows: np.ndarray, addr: np.ndarray, size: int, nrows: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row: how many runs of consecutive elements the distinct addresses form, and the sectors
    those runs would need if each started on a sector boundary."""
    order = np.lexsort((addr, rows))
    r, a = rows[order], addr[order]
    keep = np.ones(r.size, dtype=bool)
    keep[1:] = (r[1:] != r[:-1]) | (a[1:] != a[:-1])
    r, a = r[keep], a[keep]
    start = np.ones(r.size, dtype=bool)
    start[1:] = (r[1:] != r[:-1]) | (a[1:] - a[:-1] != size)
    run_id = np.cumsum(start) - 1
    run_len = np.bincount(run_id)
    run_row = r[start]
    runs = np.bincount(run_row, minlength=nrows).astype(float)
    run_sectors = np.bincount(run_row, weights=np.ceil(run_len * size / SECTOR), minlength=nrows)
    return runs, run_sectors
