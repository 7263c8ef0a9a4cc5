"""Branch uniformity: may a condition differ inside a warp, between warps, between blocks?

Two steps.  Dependence says the widest scope a condition can vary over: anything derived from
``threadIdx`` (or from data loaded at a thread-dependent address) is thread-level, ``blockIdx``
block-level, launch constants and arguments grid-level.  Evaluation then refines thread-level
conditions under the launch: if, for every sampled warp, the lanes agree, the condition is
warp-uniform (``threadIdx.x / 32``, ``threadIdx.y`` with ``blockDim.x == 32``).  Arguments
without a known value are tried at several values, so ``i < n`` stays thread-level unless
``n`` is given (or inferred) and keeps whole warps together.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .ir import Access, Branch, Kernel, Loop, walk
from .sampling import Batch, evaluate_on
from .symbolic import Expr, Load, Op, Opaque, Sym

LEVELS = ("grid", "block", "warp", "thread")
_PERTURBATIONS = (0.0, 13.0, 1000.0 + 7.0)


@dataclass
class BranchUniformity:
    branch: Branch
    uniformity: str
    divergent_fraction: float | None  # share of executing warps whose lanes disagree


class Dependence:
    """Widest scope over which an expression may vary, following loads and loop counters."""

    def __init__(self, kernel: Kernel):
        self.accesses: dict[int, Access] = {}
        self.loops: dict[str, Loop] = {}
        for stmt, _ in walk(kernel.body):
            if isinstance(stmt, Access):
                self.accesses[stmt.id] = stmt
            elif isinstance(stmt, Loop):
                self.loops[stmt.counter] = stmt
        self._memo: dict[Expr, int] = {}

    def level(self, expr: Expr, depth: int = 0) -> int:
        if depth > 64:
            return 3
        cached = self._memo.get(expr)
        if cached is not None:
            return cached
        if isinstance(expr, Sym):
            head = expr.name.split(".")[0]
            if head == "tid":
                result = 3
            elif head == "bid":
                result = 1
            elif expr.name in self.loops:
                loop = self.loops[expr.name]
                self._memo[expr] = 0  # break cycles through the loop's own update
                result = max(self.level(loop.init, depth + 1), self.level(loop.update, depth + 1),
                             self.level(loop.condition, depth + 1))
            else:
                result = 0
        elif isinstance(expr, Load):
            access = self.accesses.get(expr.access_id)
            result = self.level(access.offset, depth + 1) if access is not None else 3
        elif isinstance(expr, Opaque):
            result = 3
        elif isinstance(expr, Op):
            result = 3 if expr.name == "shfl" else max((self.level(a, depth + 1) for a in expr.args), default=0)
        else:
            result = 0
        self._memo[expr] = result
        return result


def _disagrees(values: np.ndarray, active: np.ndarray) -> np.ndarray:
    """Per row: do active lanes see different values (NaN counts as possibly different)?"""
    v = np.where(active, values, np.nan)
    lo = np.nanmin(np.where(active, values, np.inf), axis=1)
    hi = np.nanmax(np.where(active, values, -np.inf), axis=1)
    unknown = (np.isnan(v) & active).any(axis=1)
    return (hi > lo) | unknown


def uniformity(branch: Branch, batch: Batch, dependence: Dependence, defaulted: list[str]) -> BranchUniformity:
    level = dependence.level(branch.condition)
    executed = batch.active.any(axis=1)
    if level < 3:
        return BranchUniformity(branch, LEVELS[level], 0.0 if executed.any() else None)
    divergent_rows = np.zeros(batch.rows, dtype=bool)
    fraction = None
    for i, delta in enumerate(_PERTURBATIONS if defaulted else _PERTURBATIONS[:1]):
        env = batch.env
        if delta:
            env = dict(env)
            for name in defaulted:
                env[name] = env[name] + delta
        values = evaluate_on(branch.condition, Batch(env, batch.active, batch.weight))
        rows = _disagrees(values, batch.active)
        if i == 0 and executed.any():
            w = batch.weight * executed
            fraction = float((w * rows).sum() / w.sum())
        divergent_rows |= rows
    if divergent_rows[executed].any() or not executed.any():
        return BranchUniformity(branch, "thread", fraction)
    return BranchUniformity(branch, "warp", fraction)
