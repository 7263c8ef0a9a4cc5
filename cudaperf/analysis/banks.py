"""Shared-memory bank conflicts: wavefronts per shared request.

Shared memory has 32 banks of 4-byte words.  A request is served in wavefronts; one wavefront
serves at most one distinct word per bank, and lanes reading the same word share it
(broadcast).  8- and 16-byte accesses are processed per half-warp, so a conflict-free ``float2``
request costs 2 wavefronts, ``float4`` 4 (each half-warp moves 256 bytes: two words per bank),
and a ``float4`` every lane reads from one address 2 (measured on the H200: 4.1 and 2.0).  Those
are the ideals a conflict is measured against: a phase's distinct words served 32 per wavefront.  This is what
``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum`` over
``smsp__inst_executed_op_shared_{ld,st}.sum`` measures.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .memory import Executions

BANKS = 32
WORD = 4
_WORD_RANGE = 2**32  # shared memory offsets are far below 2**32 words
_INACTIVE = np.iinfo(np.int64).max  # sorts after every real key
_EXACT = 2.0**53  # byte offsets float64 still tells apart; beyond (or infinite) an address is unknown


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
    phases = 32 // lanes_per_phase
    executed = ex.active.any(axis=1)  # predicated-off issues cost no wavefront
    if not executed.any():
        return BankConflicts(0.0, 0.0, requests)
    nrows = int(executed.sum())
    active = ex.active[executed]
    address = np.nan_to_num(ex.address[executed], nan=0.0, posinf=np.inf, neginf=-np.inf)
    if not (np.abs(address[active]) < _EXACT).all():  # `i * 1e300`: no shared word has that offset
        return BankConflicts(None, None, requests)
    word = np.floor(np.where(active, address, 0.0) / WORD).astype(np.int64) % _WORD_RANGE  # (rows, 32)
    if words_per_lane > 1:  # every 4-byte word a wide access touches, lane-major
        word = (word[:, :, None] + np.arange(words_per_lane)).reshape(nrows, -1)
        active = np.repeat(active, words_per_lane, axis=1)
    phase = np.arange(word.shape[1]) // (lanes_per_phase * words_per_lane)
    # one integer key per (phase, bank, word); the distinct keys are the words each bank must serve
    key = np.where(active, (phase * BANKS + word % BANKS) * _WORD_RANGE + word, _INACTIVE)
    key.sort(axis=1)
    first = key != _INACTIVE
    first[:, 1:] &= key[:, 1:] != key[:, :-1]
    rows, cols = np.nonzero(first)
    slot = key[rows, cols] // _WORD_RANGE  # phase * BANKS + bank
    per_bank = np.bincount(rows * phases * BANKS + slot, minlength=nrows * phases * BANKS)
    per_phase = per_bank.reshape(nrows, phases, BANKS).max(axis=2)
    wavefronts = per_phase.sum(axis=1)
    # the ideal serves each phase's distinct words 32 at a time: a contiguous float4 half-warp
    # (64 words, two per bank) needs two wavefronts and is conflict-free
    words = np.bincount(rows * phases + slot // BANKS, minlength=nrows * phases).reshape(nrows, phases)
    ideal = (-(-words // BANKS)).sum(axis=1)
    w = ex.weight[executed]
    return BankConflicts(float((wavefronts * w).sum()), float((ideal * w).sum()), requests)
