"""nvcc's vectorisation of unrolled shared-memory accesses.

When a loop is unrolled and consecutive iterations touch consecutive shared-memory elements of
the same thread, nvcc merges them into one 8- or 16-byte instruction (LDS.64/LDS.128) if the
address is suitably aligned.  Shared arrays have a known alignment, so this happens routinely in
tiled matrix products (``a[m] = As[k][ty * TM + m]``); measured on the H200 it turns four
1-wavefront broadcast loads into one 2-wavefront LDS.128.  Global accesses are left alone: the
compiler cannot prove a global pointer's alignment (no float loop was vectorised in the
validation set).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .ir import Access, Loop
from .sampling import Batch, evaluate_on
from .symbolic import Sym, lift, op, substitute

VECTOR_BYTES = (16, 8)


def _group_start(access: Access, loop: Loop, width: int):
    """The access's offset at the first iteration of its group of `width` unrolled iterations."""
    back = op("*", op("%", Sym(loop.iteration), lift(width)), loop.step)
    return substitute(access.offset, {loop.counter: op("-", Sym(loop.counter), back)})


def vectorised(access: Access, context: tuple, batch: Batch) -> tuple[Access, int]:
    """The access as nvcc issues it (wider, at the group's first address) and how many source-level
    executions one instruction covers (1 when not vectorised)."""
    if access.space != "shared" or access.kind == "atomic" or access.size >= 16:
        return access, 1
    active = batch.active
    for loop in reversed([c for c in context if isinstance(c, Loop)]):
        if loop.unroll is None or loop.step is None:
            continue
        following = substitute(access.offset, {loop.counter: op("+", Sym(loop.counter), loop.step)})
        delta = evaluate_on(op("-", following, access.offset), batch)[active]
        if delta.size == 0 or not np.all(delta == access.size):
            continue
        for vector in VECTOR_BYTES:
            width = vector // access.size
            if width < 2 or (loop.unroll and loop.unroll % width):
                continue
            start = _group_start(access, loop, width)
            if np.all(np.mod(evaluate_on(start, batch)[active], vector) == 0):
                return replace(access, offset=start, size=vector), width
    return access, 1
