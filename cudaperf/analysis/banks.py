"""Shared-memory bank conflicts: wavefronts per shared request.

Shared memory has 32 banks of 4-byte words.  A request is served in wavefronts; one wavefront
serves at most one distinct word per bank, and lanes reading the same word share it
(broadcast).  8- and 16-byte accesses are processed per half-warp, so a conflict-free ``float2``
request costs 2 wavefronts, ``float4`` 4 (each half-warp moves 256 bytes: two words per bank),
and a ``float4`` every lane reads from one address 2 (measured on the H200: 4.1 and 2.0).  This is what
``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum`` over
``smsp__inst_executed_op_shared_{ld,st}.sum`` measures.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .memory import Executions, active_rows
from .rows import distinct_per_row, group_max

BANKS = 32
WORD = 4


@dataclass
class BankConflicts:
    wavefronts: float | None
    ideal_wavefronts: float | None
    requests: float

    @property
    def wavefronts_per_request(self) -> float | None:
        if self.wavefronts is None or self.requests == 0:
            return None
        return self.wavefronts / self.requests

    @property
    def ways(self) -> float | None:
        """Average conflict degree: 1 is conflict-free."""
        if not self.wavefronts or not self.ideal_wavefronts:
            return None
        return self.wavefronts / self.ideal_wavefronts


def bank_conflicts(ex: Executions) -> BankConflicts:
    requests = ex.requests
    if ex.address is None:
        return BankConflicts(None, None, requests)
    size = ex.access.size
    words_per_lane = max(1, size // WORD)
    lanes_per_phase = 32 if size <= WORD else 16
    nrows = ex.active.shape[0]
    rows, lanes, addr = active_rows(ex)
    if rows.size == 0:
        return BankConflicts(0.0, 0.0, 0.0)
    phase = lanes // lanes_per_phase
    nphase = 32 // lanes_per_phase
    word = np.floor(addr / WORD)
    if words_per_lane > 1:
        word = (word[:, None] + np.arange(words_per_lane)[None, :]).ravel()
        rows, phase = np.repeat(rows, words_per_lane), np.repeat(phase, words_per_lane)
    bank = np.mod(word, BANKS)
    group = (rows * nphase + phase) * BANKS + bank.astype(np.int64)
    per_bank = distinct_per_row(group, word, nrows * nphase * BANKS)
    per_phase = group_max(np.arange(nrows * nphase * BANKS) // BANKS, per_bank, nrows * nphase)
    wavefronts = per_phase.reshape(nrows, nphase).sum(axis=1)
    ideal = (per_phase.reshape(nrows, nphase) > 0).sum(axis=1)
    w = ex.weight
    return BankConflicts(float((wavefronts * w).sum()), float((ideal * w).sum()), requests)
