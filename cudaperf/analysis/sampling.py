"""Sampled warp executions: which lanes reach a statement, how often, with which values.

A kernel-level sectors-per-request figure is a ratio over every warp-level instruction the
launch executes.  Enumerating millions of warps is pointless: warps of a launch fall into a few
classes (first block, interior blocks, last block; each warp of a block), and loop iterations
into first, interior and last.  A *batch* is a set of sampled warp executions (rows of 32
lanes) with a weight each (how many real warp executions the row stands for) and the values of
every symbol per lane.  Entering a loop repeats rows for sampled iterations; entering a
branch narrows the active mask.  Analyses evaluate an access's byte offset on the batch of its
enclosing statements.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from .ir import Branch, Loop, walk
from .launch import Launch
from .symbolic import RELATIONS, Const, Expr, Op, Sym, evaluate, free_symbols, loads_in

WARP = 32
MAX_ROWS = 512  # cap on sampled warp executions per statement
LOOP_SAMPLES = 6  # iterations sampled at least per loop (first, last and evenly spaced interior ones)
MAX_ITERATE = 4096  # loops without a closed-form trip count are stepped at most this often
EXHAUSTIVE_WARPS = 64  # launches with at most this many warps are enumerated, not sampled


@dataclass
class Batch:
    env: dict[str, np.ndarray | float]  # values per lane (rows, 32), per row (rows, 1), or scalars; `load:<id>`: a fill
    active: np.ndarray  # bool (rows, 32)
    weight: np.ndarray  # float (rows,)
    exact: bool = True  # False once an unknown trip count or condition was assumed
    cache: dict = field(default_factory=dict)  # evaluated subexpressions, valid for this `env`
    # for a loop body: thread-level iterations of the loop, exact from every lane's trip count
    # (the sampled iterations only estimate it when trip counts differ between lanes)
    iterations: float | None = None

    @property
    def rows(self) -> int:
        return self.active.shape[0]


# Per-axis offsets of the interior lattice (irrational, so the axes decorrelate).
_OFFSETS = (0.0, 0.6180339887, 0.4142135624)


def _strata(extent: int, neighbours: bool = False, cuts: tuple[int, ...] = ()) -> list[tuple[str, int, int, int]]:
    """Per grid axis: (kind, first index, count, blocks it stands for) for the first block, the
    interior, the last block; with `neighbours`, the first three blocks on their own (what one
    block writes next to its own range, the next one reads or writes, also when block 0 leaves
    early).  `cuts` are interior blocks sampled on their own as well (crossing_blocks); the
    interior's lattice may still land on them, but stands for the other interior blocks only."""
    first = 3 if neighbours else 1
    if extent <= first + 1:
        return [("edge", i, 1, 1) for i in range(extent)]
    cuts = tuple(c for c in cuts if first <= c < extent - 1)
    return [*(("edge", i, 1, 1) for i in range(first)), *(("edge", c, 1, 1) for c in cuts),
            ("interior", first, extent - first - 1, extent - first - 1 - len(cuts)), ("edge", extent - 1, 1, 1)]


MAX_CUTS = 2  # interior blocks per grid axis sampled on their own because a bound splits a warp there
_LAUNCH_SYMBOLS = ("tid", "bid", "bdim", "gdim")


def comparisons(expr: Expr) -> Iterator[Op]:
    """The relations a condition is made of (`i < N && j < M`: both)."""
    if isinstance(expr, Op) and expr.name in ("&&", "||", "!"):
        for a in expr.args:
            yield from comparisons(a)
    elif isinstance(expr, Op) and expr.name in RELATIONS:
        yield expr


def crossing_blocks(launch: Launch, conditions: Iterable[Expr], free: Iterable[str]) -> tuple[tuple[int, ...], ...]:
    """Per grid axis: interior blocks holding a warp that a bound of `conditions` splits.

    The strata sample the first, the last and a lattice of interior blocks; a test of thread and
    block indices against a bound the launch fixes (`blockIdx.x * blockDim.x + threadIdx.x < 5000`
    under 32 blocks of 256 threads) splits one warp of block 19, which the lattice may miss.  The
    block is found by bisection between the first and the last block, which take different sides
    whole: only comparisons whose values follow from the launch and constants (not `free`
    arguments, loop counters or data) are solved, along each axis with the other block indices
    at 0."""
    threads = launch.threads_per_block
    if launch.blocks * -(-threads // WARP) <= EXHAUSTIVE_WARPS:
        return ((), (), ())
    free = frozenset(free)
    relations: list[tuple[Op, set[str]]] = []
    for relation in dict.fromkeys(r for c in conditions for r in comparisons(c)):
        names = free_symbols(relation)
        if any(n.startswith("tid.") for n in names) and any(n.startswith("bid.") for n in names) and \
                all(n.split(".")[0] in _LAUNCH_SYMBOLS or (n.startswith("arg:") and n not in free) for n in names):
            relations.append((relation, names))
    if not relations:
        return ((), (), ())
    bx, by, _ = launch.block
    linear = np.arange(threads)
    env: dict = {**launch.symbols(), "tid.x": linear % bx, "tid.y": linear // bx % by, "tid.z": linear // (bx * by)}
    pad = -threads % WARP

    def side(relation: Op, axis: str, block: int) -> int | None:
        """0 or 1: every thread of the block takes that side; 2: some warp splits; 3: whole warps differ."""
        truth = np.broadcast_to(evaluate(relation, {**env, "bid.x": 0.0, "bid.y": 0.0, "bid.z": 0.0,
                                                    f"bid.{axis}": float(block)}), (threads,))
        if np.isnan(truth).any():
            return None
        if truth.all() or not truth.any():
            return int(truth[0])
        warps = np.concatenate([truth, np.repeat(truth[-1:], pad)]).reshape(-1, WARP)
        return 2 if (warps.any(axis=1) != warps.all(axis=1)).any() else 3

    cuts: list[set[int]] = [set(), set(), set()]
    for i, axis in enumerate("xyz"):
        extent = launch.grid[i]
        for relation in (r for r, names in relations if f"bid.{axis}" in names):
            if extent < 3 or len(cuts[i]) >= MAX_CUTS:
                break
            lo, hi = 0, extent - 1
            below, above = side(relation, axis, lo), side(relation, axis, hi)
            if below not in (0, 1) or above not in (0, 1) or below == above:
                continue
            while hi - lo > 1:
                mid = (lo + hi) // 2
                found = side(relation, axis, mid)
                if found == below:
                    lo = mid
                elif found == above:
                    hi = mid
                else:
                    if found == 2:
                        cuts[i].add(mid)
                    break
    return tuple(tuple(sorted(c)) for c in cuts)


def _warp_executions(block: tuple[int, int, int], grid: tuple[int, int, int], warps_per_stratum: int,
                     neighbours: bool = False, cuts: tuple[tuple[int, ...], ...] = ((), (), ())
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sampled warp executions as (block coordinates (n, 3), warp index (n,), weight (n,)).

    The grid is split per axis into first block, interior and last block (bounds checks bite at
    the edges).  Every stratum samples the same warp indices (all warps up to
    `warps_per_stratum`, else evenly spaced ones); a stratum spanning interior blocks takes each
    warp index from a different block on an evenly spaced lattice, so many block indices are
    represented (alignment and bounds vary from block to block) for few rows."""
    bx, by, bz = block
    gx, gy, gz = grid
    warps = -(-(bx * by * bz) // WARP)
    if gx * gy * gz * warps <= EXHAUSTIVE_WARPS:  # a small launch: every warp, exactly
        blocks = np.stack(np.meshgrid(np.arange(gx), np.arange(gy), np.arange(gz), indexing="ij"), -1).reshape(-1, 3)
        return (np.repeat(blocks, warps, axis=0), np.tile(np.arange(warps), len(blocks)),
                np.ones(len(blocks) * warps))
    picks = np.unique(np.linspace(0, warps - 1, min(warps, warps_per_stratum)).round().astype(int))
    strata = list(itertools.product(*(_strata(extent, neighbours, axis_cuts)
                                      for extent, axis_cuts in zip(grid, cuts))))
    starts = np.array([[start for _, start, _, _ in stratum] for stratum in strata])
    counts = np.array([[count for _, _, count, _ in stratum] for stratum in strata])
    blocks = np.array([[stands for *_, stands in stratum] for stratum in strata]).prod(axis=1)
    sizes = np.where(counts.prod(axis=1) == 1, 1, -(-warps_per_stratum // len(picks))) * len(picks)  # rows per stratum
    which = np.repeat(np.arange(len(strata)), sizes)
    j = np.arange(which.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)  # row number within its stratum
    # a rank-1 lattice per stratum: evenly spaced, centred positions along every axis (sums of
    # quantities linear in the block index come out right), shifted by an irrational offset per
    # axis so the axes are not sampled along one diagonal
    lattice = ((j + 0.5) / sizes[which])[:, None] + np.array(_OFFSETS)
    coords = starts[which] + (lattice % 1.0 * counts[which]).astype(int)
    return coords, picks[j % len(picks)], (blocks * warps / sizes)[which]


def initial_batch(launch: Launch, all_warps: bool = False, max_warps: int = 8, neighbours: bool = False,
                  cuts: tuple[tuple[int, ...], ...] = ((), (), ())) -> Batch:
    indices, active, weight = _indices(launch.block, launch.grid, 32 if all_warps else max_warps, neighbours, cuts)
    return Batch({**launch.symbols(), **indices}, active, weight)


@functools.lru_cache(maxsize=256)
def _indices(block: tuple[int, int, int], grid: tuple[int, int, int], warps_per_stratum: int, neighbours: bool,
             cuts: tuple[tuple[int, ...], ...]) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """Thread and block indices per sampled lane, the active lanes and the rows' weights.  Kept
    per shape, read-only: the kernels of a file, and the samplers of a kernel, share launch shapes."""
    bx, by, _ = block
    bid, warp_ids, weight = _warp_executions(block, grid, warps_per_stratum, neighbours, cuts)
    linear = (warp_ids * WARP)[:, None] + np.arange(WARP)[None, :]  # integers: float % and // cost more
    indices = {"tid.x": (linear % bx).astype(float), "tid.y": (linear // bx % by).astype(float),
               "tid.z": (linear // (bx * by)).astype(float)}
    for i, axis in enumerate("xyz"):
        indices[f"bid.{axis}"] = bid[:, i:i + 1].astype(float)  # (rows, 1): one value per warp
    active = linear < math.prod(block)
    for array in (*indices.values(), active, weight):
        array.flags.writeable = False
    return indices, active, weight


def _gathered(batch: Batch, row: np.ndarray) -> dict[str, np.ndarray | float]:
    """The environment with each row's values at the rows `row` names (one gather per array)."""
    if len(row) == batch.rows:  # one sampled iteration: rows unchanged, share the arrays
        return dict(batch.env)
    return {name: (v.take(row, axis=0) if isinstance(v, np.ndarray) and v.ndim == 2 else v)
            for name, v in batch.env.items()}


def _closed_form_trips(loop: Loop, init: np.ndarray, step: np.ndarray, env, cache: dict) -> np.ndarray | None:
    """Trip counts of `for (c = init; c REL bound; c += step)` with a loop-invariant bound; also of
    `m * c REL bound` (`2 * mb < j`) for a whole m > 0, where the counter's values are whole numbers
    and every trip count is finite and below MAX_ITERATE (what stepping counts exactly)."""
    cond = loop.condition
    if not isinstance(cond, Op) or cond.name not in ("<", "<=", ">", ">=", "!=") or len(cond.args) != 2:
        return None
    a, b = cond.args
    relation = cond.name
    if _scale(b, loop.counter) and loop.counter not in free_symbols(a):
        a, b = b, a
        relation = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}[relation]
    scale = _scale(a, loop.counter)
    if not scale or loop.counter in free_symbols(b) or loop.iteration in free_symbols(b):
        return None
    if scale != 1 and (relation == "!=" or not _whole(init) or not _whole(step)):
        return None
    bound = evaluate(b, env, cache)
    with np.errstate(invalid="ignore", divide="ignore"):
        if scale != 1:  # whole c: m*c < b is c < ceil(b/m), m*c <= b is c <= floor(b/m)
            bound = (np.ceil if relation in ("<", ">=") else np.floor)(bound / scale)
        if relation in ("<", "<="):
            span = bound - init + (1 if relation == "<=" else 0)
            trips = np.where(step > 0, np.ceil(span / step), np.where(span > 0, np.inf, 0))
        elif relation in (">", ">="):
            span = init - bound + (1 if relation == ">=" else 0)
            trips = np.where(step < 0, np.ceil(span / -step), np.where(span > 0, np.inf, 0))
        else:
            span = bound - init
            trips = np.where((step != 0) & (np.fmod(span, step) == 0) & (span / step >= 0), span / step, np.inf)
    trips = np.maximum(trips, 0)
    if scale != 1 and not (trips < MAX_ITERATE).all():  # unknown or endless lanes: as stepping finds them
        return None
    return trips


def _scale(expr: Expr, counter: str) -> float:
    """m when `expr` is the counter times a whole constant m > 0 (1 for the counter itself), else 0."""
    if expr == Sym(counter):
        return 1.0
    if isinstance(expr, Op) and expr.name == "*" and len(expr.args) == 2 and Sym(counter) in expr.args:
        m = expr.args[1] if expr.args[0] == Sym(counter) else expr.args[0]
        if isinstance(m, Const) and m.value > 0 and float(m.value).is_integer():
            return float(m.value)
    return 0.0


def _whole(values: np.ndarray) -> bool:
    """Every value a finite whole number."""
    return bool((np.isfinite(values) & (values == np.trunc(values))).all())


def _depth_below(loop: Loop) -> int:
    """How many loop levels nest inside `loop`."""
    return max((1 + sum(isinstance(a, Loop) for a in ancestors)
                for stmt, ancestors in walk(loop.body) if isinstance(stmt, Loop)), default=0)


def _shaped(value, shape: tuple[int, ...]) -> np.ndarray:
    """`np.broadcast_to`, without its cost when the value has the shape already (a stepped loop
    asks thousands of times)."""
    return value if isinstance(value, np.ndarray) and value.shape == shape else np.broadcast_to(value, shape)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """`np.array_equal(a, b, equal_nan=True)` for two arrays of one shape, at a fraction of its cost."""
    return bool(((a == b) | (np.isnan(a) & np.isnan(b))).all())


def _stepped(batch: Batch, loop: Loop, init: np.ndarray,
             unknown_trips: int) -> tuple[Callable[[int], np.ndarray], np.ndarray, bool]:
    """The counter stepped numerically (handles s >>= 1, i *= 2 and conditions of any shape): its
    value at an iteration, the trips per lane, whether they were known.  A condition reading
    neither the counter nor the iteration lets the same lanes through from the step that settles
    its unknowns on: later steps only update the counter (`while (true)` stepped 4,096 times), and
    an affine counter moving by whole numbers is then computed at the iterations asked for rather
    than stepped (`for (p = blockIdx.x;; p += gridDim.x)`, left by a break)."""
    shape = batch.active.shape
    values: list[np.ndarray] = []
    value, known = init, True
    trips = np.zeros(shape)
    alive = batch.active.copy()
    step_env = dict(batch.env)
    read = free_symbols(loop.condition)
    steady = loop.iteration not in read
    settled = max(1, unknown_trips) if steady and loop.counter not in read else MAX_ITERATE
    step = _whole_step(loop, step_env, shape) if settled < MAX_ITERATE else None
    for k in range(MAX_ITERATE):
        step_env[loop.counter] = value
        step_env[loop.iteration] = float(k)
        if k <= settled:
            holds = _shaped(evaluate(loop.condition, step_env), shape)
            if k == 0 and loop.at_least_once:
                holds = np.ones(shape)
            unknown = np.isnan(holds) & alive
            if unknown.any():
                known = False
                holds = np.where(np.isnan(holds), 1.0 if k < unknown_trips else 0.0, holds)
            alive = alive & (holds == 1)
            if not alive.any():
                break
        elif step is not None and _moves_exactly(value, step, MAX_ITERATE - k):
            # what stepping to MAX_ITERATE would give, summed exactly in float64
            trips = trips + alive * (MAX_ITERATE - k)
            return _affine_from(values, value, step, k), trips, False
        values.append(value)
        trips = trips + alive
        value = _shaped(evaluate(loop.update, step_env), shape).astype(float)
        if steady and _same(value, values[-1]):
            known = False  # nothing the condition reads changes (`while (true)` left by a break)
            if k + 1 >= unknown_trips:
                break
    else:
        known = False
    return values.__getitem__, trips, known


def _whole_step(loop: Loop, env, shape: tuple[int, ...]) -> np.ndarray | None:
    """The affine counter's loop-invariant step on every lane, when each is a finite whole number."""
    if loop.step is None or {loop.counter, loop.iteration} & free_symbols(loop.step):
        return None
    step = _shaped(evaluate(loop.step, env), shape).astype(float)
    return step if _whole(step) else None


def _moves_exactly(value: np.ndarray, step: np.ndarray, steps: int) -> bool:
    """Whether `steps` more additions of `step` keep every finite value a whole number float64
    holds exactly, and move at least one (a counter that stands still ends the stepping early)."""
    finite = np.isfinite(value)
    if not (finite & (step != 0)).any():
        return False
    return _whole(value[finite]) and \
        bool((np.abs(value[finite]) + steps * np.abs(step[finite])).max() <= _EXACT_WHOLE)


_EXACT_WHOLE = 2.0**53  # whole numbers up to this add and multiply exactly in float64


def _affine_from(values: list[np.ndarray], value: np.ndarray, step: np.ndarray,
                 start: int) -> Callable[[int], np.ndarray]:
    """The counter at iteration k: stepped before `start`, `value + (k - start) * step` from there."""
    return lambda k: values[k] if k < start else value + (k - start) * step


def enter_loop(batch: Batch, loop: Loop, unknown_trips: float | np.ndarray = 1) -> tuple[Batch, bool]:
    """Rows for sampled iterations of `loop`; also whether the trip count was known.  A trip count
    resting on values the sampler cannot see is taken as `unknown_trips` (the race analysis takes
    2: a loop on data may repeat, and its tail then meets its head)."""
    env = batch.env
    shape = batch.active.shape
    init = _shaped(evaluate(loop.init, env, batch.cache), shape).astype(float)
    known = True
    counter_at: Callable[[int], np.ndarray] | None = None
    trips = None
    if loop.step is not None:
        step = _shaped(evaluate(loop.step, env, batch.cache), shape).astype(float)
        trips = _closed_form_trips(loop, init, step, env, batch.cache)
    if trips is None:
        counter_at, trips, known = _stepped(batch, loop, init, int(np.max(unknown_trips)))
    else:
        bad = ~np.isfinite(trips) & batch.active
        if bad.any():
            known = False
            trips = np.where(np.isfinite(trips), trips, np.asarray(unknown_trips, dtype=float))
        if loop.at_least_once:
            trips = np.maximum(trips, 1)
    trips = np.where(batch.active, trips, 0)
    iterations = float(trips.sum(axis=1) @ batch.weight)
    total = int(trips.max()) if trips.size else 0
    if total == 0:  # never entered: the counter keeps its first value, the one the condition was tested on
        env = {**batch.env, loop.counter: init, loop.iteration: 0.0}
        return Batch(env, np.zeros_like(batch.active), batch.weight, batch.exact and known), known
    # share the row budget with the loops nested inside, so every level gets sampled
    budget = (MAX_ROWS / max(1, batch.rows)) ** (1.0 / (1 + _depth_below(loop)))
    samples = min(total, max(LOOP_SAMPLES if budget >= 1 else 1, int(budget)))
    if samples >= total:
        picks = [(k, 1.0) for k in range(total)]
    elif samples == 1:
        picks = [(total // 2, float(total))]
    elif samples == 2:
        picks = [(0, total / 2), (total - 1, total / 2)]
    else:
        interior = np.linspace(1, total - 2, samples - 2).round().astype(int)
        picks = [(0, 1.0)] + [(int(k), (total - 2) / (samples - 2)) for k in interior] + [(total - 1, 1.0)]
    n = len(picks)
    row, pick = np.divmod(np.arange(batch.rows * n), n)  # new rows: rows x picks, gathered once each
    new_env = _gathered(batch, row)
    kcol = np.array([k for k, _ in picks], dtype=float).take(pick)[:, None]
    if counter_at is not None:  # the stepped values at the picked iterations only: (picks, rows, 32) -> rows x picks
        counter = np.stack([counter_at(k) for k, _ in picks]).transpose(1, 0, 2).reshape(batch.rows * n, WARP)
    else:
        counter = init.take(row, axis=0) + kcol * step.take(row, axis=0)
    new_env[loop.counter] = counter
    new_env[loop.iteration] = kcol  # (rows, 1): one iteration number per row
    active = batch.active.take(row, axis=0) & (kcol < trips.take(row, axis=0))
    weight = batch.weight.take(row) * np.array([w for _, w in picks]).take(pick)
    return Batch(new_env, active, weight, batch.exact and known, iterations=iterations), known


def _last_block(batch: Batch) -> np.ndarray:
    """(rows, 1): the rows of the grid's last block, the last index on every axis (always sampled)."""
    last = np.ones((batch.rows, 1), dtype=bool)
    for axis in "xyz":
        last &= np.broadcast_to(batch.env[f"bid.{axis}"] == batch.env[f"gdim.{axis}"] - 1, (batch.rows, 1))
    return last


def enter_branch(batch: Batch, branch: Branch, side: bool) -> Batch:
    """Narrow to lanes taking `side`; a data-dependent condition is assumed taken by every lane on
    both sides (the warp serialises both paths), which the batch records as inexact.  The then side of
    a last block's ticket (`Branch.one_block`) is taken by the grid's last block alone: one block's
    executions, whichever block it is."""
    cond = _shaped(evaluate(branch.condition, batch.env, batch.cache), batch.active.shape)
    unknown = np.isnan(cond)
    taken = (cond == 1) if side else (cond == 0)
    if side and branch.one_block:
        unknown = unknown & _last_block(batch)
    exact = batch.exact and not (unknown & batch.active).any()
    return Batch(batch.env, batch.active & (taken | unknown), batch.weight, exact, batch.cache)


class Sampler:
    """Batches per statement context, memoised on the chain of enclosing loops and branches."""

    def __init__(self, launch: Launch, all_warps: bool = False, neighbours: bool = False,
                 cuts: tuple[tuple[int, ...], ...] = ((), (), ()), assumed_trips: int = 1,
                 row_spans: dict[int, float] | None = None, fills: dict[int, tuple[Expr, int, float]] | None = None):
        self.assumed_trips = assumed_trips  # trips of a loop whose count rests on unseen values (enter_loop)
        self.row_spans = row_spans or {}    # entries of a compressed-row loop's row, by loop id (extents.row_spans)
        self.fills = fills or {}  # loads read as values: a row pointer's `ptr[r]` as r rows (extents.pointer_fills)
        self._keys = {f"load:{load}" for load in self.fills}
        self.root = self._filled(initial_batch(launch, all_warps=all_warps, neighbours=neighbours, cuts=cuts))
        self.cache: dict[tuple, Batch] = {(): self.root}
        self.unknown_trips: set[int] = set()

    def batch(self, ancestors: tuple) -> Batch:
        cached = self.cache.get(ancestors)
        if cached is not None:
            return cached
        parent = self.batch(ancestors[:-1])
        last = ancestors[-1]
        if isinstance(last, Loop):
            out, known = enter_loop(parent, last, self._unknown_trips(parent, last))
            if not known or self._reads_fills(last.init, last.condition, last.step):
                self.unknown_trips.add(last.id)
                out.exact = False
        else:
            branch, side = last
            if self._reads_fills(branch.condition):  # rows all of the average length would take one side
                parent = Batch({k: v for k, v in parent.env.items() if k not in self._keys}, parent.active,
                               parent.weight, parent.exact)  # real rows differ: both sides, as for data
            out = enter_branch(parent, branch, side)
        self.cache[ancestors] = self._filled(out)
        return self.cache[ancestors]

    def _reads_fills(self, *exprs: Expr | None) -> bool:
        """Does a value the sampler made up for a load (a row's bounds) decide this?"""
        return bool(self.fills) and any(e is not None and any(ld.access_id in self.fills for ld in loads_in(e))
                                        for e in exprs)

    def _filled(self, batch: Batch) -> Batch:
        """The batch with the fills its values can place: `ptr[r]` is r rows of the average length, once
        `r` is known (a loop counter inside its loop).  Placed when the batch is made, before the analyses
        evaluate anything on it (a branch's batch shares its parent's values, filled already)."""
        for load, (offset, size, span) in self.fills.items():
            key = f"load:{load}"
            if key in batch.env:
                continue
            row = np.floor(np.asarray(evaluate(offset, batch.env, batch.cache), dtype=float) / size)
            if np.isfinite(row).any():
                batch.env[key] = np.floor(row * span)
        return batch

    def _unknown_trips(self, batch: Batch, loop: Loop) -> float | np.ndarray:
        """Trips of a loop whose count rests on unseen values: a compressed row's entries over the counter's
        step (`for (j = ptr[r] + lane; j < ptr[r + 1]; j += 32)`: a 32nd each), else `assumed_trips`."""
        span = self.row_spans.get(loop.id)
        if span is None or loop.step is None:
            return float(self.assumed_trips)
        step = np.abs(_shaped(evaluate(loop.step, batch.env, batch.cache), batch.active.shape).astype(float))
        return np.where(np.isfinite(step) & (step > 0), np.maximum(1.0, span / np.maximum(step, 1e-9)),
                        float(self.assumed_trips))

    def exits(self, ancestors: tuple, loop: Loop) -> Batch:
        """The loop's sampled iterations with every lane that entered the loop marked active, so
        that lanes leaving earlier than their warp-mates show up as disagreeing on the condition."""
        parent, inner = self.batch(ancestors), self.batch(ancestors + (loop,))
        repeat = inner.rows // max(1, parent.rows)
        return Batch(inner.env, np.repeat(parent.active, repeat, axis=0), inner.weight, inner.exact, inner.cache)


def evaluate_on(expr: Expr, batch: Batch) -> np.ndarray:
    value = evaluate(expr, batch.env, batch.cache)
    if isinstance(expr, Const) or np.ndim(value) == 0:
        return np.full(batch.active.shape, float(value))
    return _shaped(value, batch.active.shape)
