"""Branch uniformity: may a condition differ inside a warp, between warps, between blocks?

Two steps.  Dependence says the widest scope a condition can vary over: anything derived from
``threadIdx`` (or from data loaded at a thread-dependent address) is thread-level, ``blockIdx``
block-level, launch constants and arguments grid-level.  Evaluation then refines thread-level
conditions under the launch: if, for every sampled warp, the lanes agree, the condition is
warp-uniform (``threadIdx.x / 32``, ``threadIdx.y`` with ``blockDim.x == 32``).  The launch
shape is taken as given, but scalar arguments are not: the uniformity is what the code
guarantees for any input, so a bounds check ``i < n`` is thread-level even when this launch's
``n`` happens to be a multiple of 32 (see ``may_split``).  ``divergent_fraction`` is the measured
side: the share of warps that really split under this launch and these argument values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .ir import Access, Branch, Kernel, Loop, statements
from .launch import Launch
from .sampling import MAX_ITERATE, Batch, Sampler, crossing_blocks, evaluate_on
from .sets import grouped_rows
from .symbolic import (
    ONE,
    RELATIONS,
    Const,
    Expr,
    Load,
    Op,
    Opaque,
    Sym,
    evaluable,
    evaluate,
    free_symbols,
    loads_in,
    op,
    substitute,
)

LEVELS = ("grid", "block", "warp", "thread")
# results every lane of a warp (a vote, a reduction) or every thread of a block (__syncthreads_or) shares
_UNIFORM_OVER = {"warp_uniform": 2, "block_uniform": 1}
_CAN_ERASE = ("/", ">>")  # by an unknown amount, these may remove a thread index's variation (tid / WARP_SIZE)
BOUNDARY_WARPS = 4  # one straddling warp in blocks this large is at most a quarter of the warps


@dataclass
class BranchUniformity:
    uniformity: str  # thread | warp | block | grid
    divergent_fraction: float | None  # share of executing warps whose lanes disagree
    # the thread dependence is seen, not assumed: it survives treating unknown values as uniform
    evident: bool = True
    # a comparison with a lane-uniform bound (`tid < n`) whose warps cover disjoint ranges: whatever
    # the bound, only the one warp straddling it splits, and blocks have at least BOUNDARY_WARPS warps
    boundary: bool = False
    # the condition reads data loaded at per-thread addresses: under "warp", lanes agreed only on
    # stand-in values and the real data may split any threads ("warp" is the least the condition can
    # do, not the most); under "thread", how many warps split depends on the data, not on the share
    # the stand-ins gave
    data_dependent: bool = False
    # no lane's value of the condition is known, and not for loading data (`n - offset >= 8` with the
    # loop's step an unresolved template parameter): divergent_fraction counts unknowns as splits
    unresolved: bool = False


class Dependence:
    """Widest scope over which an expression may vary, following loads and loop counters."""

    def __init__(self, kernel: Kernel):
        self.accesses: dict[int, Access] = {}
        self.cycles: dict[str, tuple[Expr, ...]] = {}  # loop counters and carried values: what they follow
        for stmt, _ in statements(kernel):
            if isinstance(stmt, Access):
                self.accesses[stmt.id] = stmt
            elif isinstance(stmt, Loop):
                self.cycles[stmt.counter] = (stmt.init, stmt.update, stmt.condition)
                self.cycles.update(stmt.carried)
        self._memo: dict[Expr, int] = {}

    @staticmethod
    def of(kernel: Kernel) -> Dependence:
        """The kernel's one Dependence: the branch and race passes share the levels found."""
        found = kernel.__dict__.get("_dependence")
        if found is None:
            found = kernel.__dict__["_dependence"] = Dependence(kernel)
        return found

    def _cyclic(self, symbol: Sym, depth: int, unknown: int) -> int:
        """A value that follows itself through the loop (a counter, a carried value): its level is
        the least one its parts agree with, found by guessing uniform and raising the guess to what
        the parts give until they agree.  Levels found meanwhile leaned on the guess: they are
        forgotten whenever it is raised, so no later query, in whatever order, sees a stale guess."""
        key = (symbol, unknown)
        mark = len(self._memo)
        guess = 0
        while True:
            self._memo[key] = guess
            result = max(self.level(part, depth + 1, unknown) for part in self.cycles[symbol.name])
            if result <= guess:
                return guess
            for leaned in list(self._memo)[mark:]:
                del self._memo[leaned]
            if result == LEVELS.index("thread"):  # the widest level: nothing can raise it further
                return result
            guess = result

    def level(self, expr: Expr, depth: int = 0, unknown: int = 3) -> int:
        """0 uniform, 1 per block, 3 per thread; values the lowering could not follow (opaque
        calls, unresolved template parameters) count as `unknown`."""
        if depth > 64:
            return unknown
        cached = self._memo.get((expr, unknown))
        if cached is not None:
            return cached
        if isinstance(expr, Sym):
            head = expr.name.split(".")[0]
            if head == "tid":
                result = 3
            elif head == "bid":
                result = 1
            elif expr.name in self.cycles:
                result = self._cyclic(expr, depth, unknown)
            else:
                result = 0
        elif isinstance(expr, Load):
            access = self.accesses.get(expr.access_id)
            result = self.level(access.offset, depth + 1, unknown) if access is not None else unknown
            if access is not None and access.space == "shared":  # each block has its own shared memory
                result = max(result, 1)
        elif isinstance(expr, Opaque):
            result = 0 if expr.uniform else unknown if not expr.follows else \
                max(self.level(part, depth + 1, unknown) for part in expr.follows)
        elif isinstance(expr, Op) and expr.name == "shfl_idx":  # every lane reads one lane's value
            value, source, width = expr.args
            whole_warp = isinstance(width, Const) and width.value >= 32
            result = min(2, self.level(value, depth + 1, unknown)) \
                if whole_warp and self.level(source, depth + 1, unknown) < 3 else 3
        elif isinstance(expr, Op) and expr.name in _CAN_ERASE and any(isinstance(a, Opaque) for a in expr.args):
            result = unknown  # `tid / WARP_SIZE` with WARP_SIZE unknown: may be the same in every lane
        elif isinstance(expr, Op):
            widest = max((self.level(a, depth + 1, unknown) for a in expr.args), default=0)
            result = 3 if expr.name == "shfl" else min(widest, _UNIFORM_OVER.get(expr.name, 3))
        else:
            result = 0
        self._memo[(expr, unknown)] = result
        return result


def divergence_sampler(kernel: Kernel, launch: Launch, free: list[str]) -> Sampler:
    """Every warp of the sampled blocks, and of the blocks where a branch's or a loop's first test
    against a bound the launch fixes splits a warp (`i < 5000` in an interior block: a strata
    lattice would miss it, and the test would look warp-uniform).  `free`: arguments judged at
    any value, whose bounds have no one place to fall."""
    tests = [stmt.condition if isinstance(stmt, Branch) else substitute(stmt.condition, {stmt.counter: stmt.init})
             for stmt, _ in statements(kernel) if isinstance(stmt, Branch | Loop)]
    return Sampler(launch, all_warps=True, cuts=crossing_blocks(launch, tests, free))


def disagrees(values: np.ndarray, active: np.ndarray, groups: np.ndarray | None = None) -> np.ndarray:
    """Per row: do active lanes see different values (NaN counts as possibly different)?  With
    `groups` (a group number per row), do the active lanes of the row's group?"""
    if groups is None:  # a lane differing from the row's first active lane (NaN differs from all)
        first = np.take_along_axis(np.broadcast_to(values, active.shape), active.argmax(axis=1)[:, None], axis=1)
        return ((values != first) & active).any(axis=1)
    unknown = (np.isnan(values) & active).any(axis=1)
    lo = np.fmin.reduce(np.where(active, values, np.inf), axis=1)  # NaN skipped: its row is unknown already
    hi = np.fmax.reduce(np.where(active, values, -np.inf), axis=1)
    lo, hi, unknown = (_over_groups(reduce, part, groups) for reduce, part in
                       ((np.fmin, lo), (np.fmax, hi), (np.logical_or, unknown)))
    return (hi > lo) | unknown


def _over_groups(reduce: np.ufunc, per_row: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """`reduce` over the rows of each group, given back per row."""
    start = {np.fmin: np.inf, np.fmax: -np.inf, np.logical_or: False}[reduce]
    out = np.full(groups.max() + 1, start, dtype=per_row.dtype)
    reduce.at(out, groups, per_row)
    return out[groups]


def _block_groups(batch: Batch) -> np.ndarray:
    """A group number per row: rows of one block at the same sampled loop iterations (the values
    the sampler keeps one per row: block indices and iteration numbers), i.e. warps of one block
    at one point of the program."""
    cached = batch.cache.get(_block_groups)  # valid for the env, which the batches of one loop context share
    if cached is not None:
        return cached
    per_row = [np.broadcast_to(v, (batch.rows, 1)) for v in batch.env.values()
               if isinstance(v, np.ndarray) and v.ndim == 2 and v.shape == (batch.rows, 1)]
    groups = grouped_rows(np.concatenate(per_row, axis=1))[1] if per_row else np.zeros(batch.rows, dtype=int)
    batch.cache[_block_groups] = groups
    return groups


_LOGICAL = ("&&", "||", "!")


def _argument_dependent(expr: Expr, arguments: frozenset[str]) -> bool:
    return bool(free_symbols(expr) & arguments)


def _periods(expr: Expr) -> set[Expr]:
    """Values `expr` is a multiple of whatever the arguments: 32 for `(n + 31) / 32 * 32`,
    `n & ~31` or `k << 5`; 4 for `(n / 4) * 4`; `blockDim.x` for
    `(n + blockDim.x - 1) / blockDim.x * blockDim.x`.  At most one constant, the largest known."""
    if isinstance(expr, Const):
        whole = math.isfinite(expr.value) and float(expr.value).is_integer()
        return _constant(abs(int(expr.value))) if whole else set()
    if not isinstance(expr, Op) or not expr.is_int:
        return {expr} if isinstance(expr, Sym) else set()
    args = expr.args
    if expr.name == "*":
        sides = [_periods(a) | ({a} if not isinstance(a, Const) else set()) for a in args]
        return _symbolic(set().union(*sides)) | _constant(math.prod(_step(s) for s in sides))
    if expr.name in ("+", "-", "min", "max", "?:"):
        sides = [_periods(a) for a in (args[1:] if expr.name == "?:" else args)]
        return _symbolic(set.intersection(*sides)) | _constant(math.gcd(*(_step(s) for s in sides)))
    if expr.name == "<<" and isinstance(args[1], Const):
        return _symbolic(_periods(args[0])) | _constant(_step(_periods(args[0])) << int(args[1].value))
    if expr.name == "&":
        masks = [int(a.value) for a in args if isinstance(a, Const)]
        return _constant(masks[0] & -masks[0]) if masks else set()
    return set()


def constant_period(expr: Expr) -> int:
    """The constant `expr` is a multiple of whatever its unknowns (1024 for `k * 1024`; 1 when none)."""
    return _step(_periods(expr))


def _step(periods: set[Expr]) -> int:
    """The constant among `periods` (1 when none; 0 for the value 0, a multiple of anything)."""
    return next((int(p.value) for p in periods if isinstance(p, Const)), 1)


def _constant(step: int) -> set[Expr]:
    return {Const(float(step))} if step != 1 else set()


def _symbolic(periods: set[Expr]) -> set[Expr]:
    return {p for p in periods if not isinstance(p, Const)}


# `below < bound` and `bound <= below` with a bound that is a multiple of a period p: lanes agree
# when they share floor(below / p), whatever the bound
_ALIGNED = {"<": (0, 1), ">=": (0, 1), ">": (1, 0), "<=": (1, 0)}  # relation: (thread side, bound side)


def _aligned_split(expr: Op, batch: Batch, arguments: frozenset[str],
                   groups: np.ndarray | None) -> np.ndarray | None:
    """Per row, for a comparison against an argument-dependent bound with a known period: do
    the lanes fall into different periods?  None when the comparison has no such form."""
    sides = _ALIGNED.get(expr.name)
    if sides is None:
        return None
    below, bound = (expr.args[i] for i in sides)
    periods = _periods(bound) if not _argument_dependent(below, arguments) else set()
    splits = [disagrees(evaluate_on(op("/", below, period, is_int=True), batch), batch.active, groups)
              for period in periods if not _argument_dependent(period, arguments) and period != Const(0.0)]
    if isinstance(bound, Op) and bound.name == "<<" and bound.args[0] == ONE and \
            not _argument_dependent(below, arguments):  # `1 << lg`: a multiple of 32, or below every lane past 31
        group = evaluate_on(op("/", below, Const(32.0), is_int=True), batch)
        first = ((group == 0) & batch.active).any(axis=1)
        if groups is not None:
            first = _over_groups(np.logical_or, first, groups)
        splits.append(disagrees(group, batch.active, groups) |
                      (first & disagrees(evaluate_on(below, batch), batch.active, groups)))
    return np.logical_and.reduce(splits) if splits else None


def may_split(expr: Expr, batch: Batch, arguments: frozenset[str], groups: np.ndarray | None = None) -> np.ndarray:
    """Per row: can lanes of this warp (with `groups`, threads of the row's group of rows)
    disagree on `expr` for some values of the arguments?

    A comparison against an argument-dependent threshold (``i < n``) splits a warp for some
    argument value exactly when the difference of its sides varies across the warp's lanes; a
    threshold rounded to a multiple of 32 only when the lanes lie in different 32-aligned groups.
    Across a group of warps, a threshold that itself varies inside the group
    (`m < min(n, start + CHUNK)` with `start` per warp) may split it for other argument values."""
    if isinstance(expr, Op) and expr.name in _LOGICAL:
        out = np.zeros(batch.rows, dtype=bool)
        for a in expr.args:
            out |= may_split(a, batch, arguments, groups)
        return out
    split = np.zeros(batch.rows, dtype=bool)
    if groups is not None and isinstance(expr, Op) and expr.name in RELATIONS:
        for side in expr.args:
            if _argument_dependent(side, arguments):
                split |= disagrees(evaluate_on(side, batch), batch.active, groups)
    aligned = _aligned_split(expr, batch, arguments, groups) if isinstance(expr, Op) and \
        _argument_dependent(expr, arguments) else None
    if aligned is not None:
        return split | aligned
    if isinstance(expr, Op) and expr.name in RELATIONS and _argument_dependent(expr, arguments):
        difference = op("-", expr.args[0], expr.args[1], is_int=False)
        return split | disagrees(evaluate_on(difference, batch), batch.active, groups)
    if groups is not None and isinstance(expr, Op) and expr.name in RELATIONS and \
            _between_sampled_blocks(expr, batch, groups):
        return np.ones(batch.rows, dtype=bool)
    return split | disagrees(evaluate_on(expr, batch), batch.active, groups)


def _between_sampled_blocks(expr: Op, batch: Batch, groups: np.ndarray) -> bool:
    """May a block that was not sampled split on this comparison?  When its sides differ by
    different amounts inside a block and the sampled blocks do not all take one side
    (`tid / 128 + 2 * bid < 1023`: blocks 0-2 pass, the last fails, block 511 splits)."""
    difference = evaluate_on(op("-", expr.args[0], expr.args[1], is_int=False), batch)
    if not disagrees(difference, batch.active, groups).any():
        return False
    truth = np.broadcast_to(evaluate_on(expr, batch), batch.active.shape)
    taken = np.unique(truth[batch.active & ~np.isnan(truth)] != 0)
    return len(taken) > 1


_UNKNOWN_UNIFORM = ("shfl_idx", *_UNIFORM_OVER)
_READS_OTHER_LANES = ("shfl", "shfl_idx")


_SALT = 1.4142135624  # irrational: distinct loads and argument positions scramble apart


def _scrambled(key: np.ndarray) -> np.ndarray:
    """A stand-in value per key: equal keys agree, nearby keys land far apart (the fractional
    part of a golden-ratio multiple, in [0, 1e6))."""
    x = np.multiply(key, 0.6180339887498949, dtype=float)  # one new array, then in place (per load per branch)
    x -= np.floor(x)
    x *= 1e6
    return np.floor(x, out=x)


class _Namer:
    """`expr` with the values it cannot evaluate replaced by symbols recorded in `named`, like
    arguments: loaded data by a stand-in for the address it comes from (lanes that load one word
    see one value, lanes that load different words may not), calls the evaluator does not model
    by a stand-in for their arguments, and votes, broadcasts, loads from addresses the dependence
    analysis calls uniform and values the lowering lost (`?depth`, `p.n` of a struct argument) by
    one value for every lane: divergence must be evident without them.  Shared subtrees are
    named once (conditions of sorting networks are DAGs)."""

    def __init__(self, batch: Batch, dependence: Dependence):
        self.dependence = dependence
        self.named: dict = {}
        self.unseen: set[str] = set()  # names standing for identifiers nothing in sight declares
        self.memo: dict[int, tuple[Expr, Expr]] = {}
        # its env gains the names; values of subtrees without them carry over (keyed by the node)
        self.batch = Batch(dict(batch.env), batch.active, batch.weight,
                           cache={key: hit for key, hit in batch.cache.items() if isinstance(key, Expr)})

    def __call__(self, expr: Expr) -> Expr:
        hit = self.memo.get(id(expr))
        if hit is None:
            hit = self.memo[id(expr)] = (expr, self._name(expr))  # holding expr keeps its id unique
        return hit[1]

    def _stand_in(self, expr: Expr, keys: list[Expr]) -> Sym | None:
        """A symbol for `expr` whose values scramble those of `keys` (None when one is unknown on
        an active lane)."""
        key = sum(evaluate(k, self.batch.env, self.batch.cache) * (_SALT + n) for n, k in enumerate(keys))
        values = _scrambled(np.atleast_1d(key))
        if not np.isfinite(np.broadcast_to(values, self.batch.active.shape)[self.batch.active]).all():
            return None
        return self._symbol(values, expr.is_int)

    def _symbol(self, value, is_int: bool) -> Sym:
        name = f"arg:unknown{len(self.named)}"
        self.named[name] = self.batch.env[name] = value
        return Sym(name, is_int)

    def _name(self, expr: Expr) -> Expr:
        dependence = self.dependence
        if isinstance(expr, Load) and expr.access_id in dependence.accesses:
            if dependence.level(expr) < 3:
                return self._symbol(1.0, expr.is_int)
            offset = dependence.accesses[expr.access_id].offset
            # `a[b[i]]`: b[i] first
            return self._stand_in(expr, [self(offset), Const(float(expr.access_id))]) or expr
        if (isinstance(expr, Op) and expr.name in _UNKNOWN_UNIFORM and dependence.level(expr) < 3) or \
                isinstance(expr, Opaque):
            symbol = self._symbol(1.0, expr.is_int)
            if isinstance(expr, Opaque) and expr.unseen:
                self.unseen.add(symbol.name)
            return symbol
        if not isinstance(expr, Op):
            return expr
        if not evaluable(expr) and expr.name not in _READS_OTHER_LANES:  # `__popc(m)`: a pure function
            symbol = self._stand_in(expr, [self(a) for a in expr.args])
            if symbol is not None:
                return symbol
        args = tuple(self(a) for a in expr.args)
        return expr if args == expr.args else op(expr.name, *args, is_int=expr.is_int)


def _on_iterations(loop: Loop) -> Expr:
    """The loop's condition on the iteration number rather than the counter, when the counter is
    affine: a counter starting at a loaded value (`for (j = row_ptr[r]; j < row_ptr[r + 1]; ...)`)
    is then judged by the loads' addresses, which the sampled counter values cannot show."""
    if loop.step is None:
        return loop.condition
    counter = op("+", loop.init, op("*", Sym(loop.iteration), loop.step))
    return substitute(loop.condition, {loop.counter: counter})


def _unwrapped(expr: Expr, carried: dict, memo: dict[int, Expr]) -> Expr:
    """`expr` with each opaque stand-in for a value carried through the loop (`v` in its body)
    replaced by that value's symbol."""
    hit = memo.get(id(expr))
    if hit is not None:
        return hit
    out = expr
    if isinstance(expr, Opaque) and len(expr.follows) == 1 and getattr(expr.follows[0], "name", None) in carried:
        out = expr.follows[0]
    elif isinstance(expr, Op):
        args = tuple(_unwrapped(a, carried, memo) for a in expr.args)
        out = expr if all(a is b for a, b in zip(args, expr.args)) else op(expr.name, *args, is_int=expr.is_int)
    memo[id(expr)] = out
    return out


def _carried_exits(loop: Loop, batch: Batch) -> np.ndarray | None:
    """Per row: do lanes leave the loop at different iterations, stepping the values carried
    through it as the program does?  For a test the lowering keeps opaque because its values
    change in the body (`while (v > 1) { v = v & 1 ? 3 * v + 1 : v >> 1; ... }`).  None when a
    value is not arithmetic on known ones (data, calls) or lanes are still running after
    MAX_ITERATE iterations: nothing is claimed then."""
    carried = {name: parts for name, parts in loop.carried.items() if len(parts) == 3}
    memo: dict[int, Expr] = {}
    condition = _unwrapped(loop.condition, carried, memo)
    if condition is loop.condition:  # the test reads no carried value
        return None
    stepped = {loop.counter: (loop.init, loop.update), **{name: parts[:2] for name, parts in carried.items()}}
    env, shape = dict(batch.env), batch.active.shape
    values = {name: evaluate(_unwrapped(first, carried, memo), env) for name, (first, _) in stepped.items()}
    updates = {name: _unwrapped(then, carried, memo) for name, (_, then) in stepped.items()}
    alive = batch.active
    for k in range(MAX_ITERATE):
        env.update(values)
        env[loop.iteration] = float(k)
        holds = np.ones(shape) if k == 0 and loop.at_least_once else \
            np.broadcast_to(evaluate(condition, env), shape)
        if np.isnan(holds[alive]).any():
            return None
        alive = alive & (holds == 1)
        left = alive.any(axis=1) & (batch.active & ~alive).any(axis=1)
        if left.any() or not alive.any():
            return left
        values = {name: evaluate(then, env) for name, then in updates.items()}
    return None


def _overlapping_warps(side: Expr, batch: Batch) -> bool:
    """Do two warps of one block cover overlapping ranges of `side` (or is a value unknown)?"""
    values = evaluate_on(side, batch)
    rows = batch.active.any(axis=1)
    if not np.isfinite(np.where(batch.active, values, 0.0)[rows]).all():
        return True
    lo = np.where(batch.active, values, np.inf).min(axis=1)[rows]
    hi = np.where(batch.active, values, -np.inf).max(axis=1)[rows]
    keys = np.stack([np.broadcast_to(np.asarray(batch.env.get(n, 0.0), dtype=float), batch.active.shape)[rows, 0]
                     for n in ("bid.x", "bid.y", "bid.z", "tid.x", "tid.y", "tid.z")], axis=1)
    warps, which = grouped_rows(keys)  # a warp's rows: its loop iterations
    low, high = np.full(len(warps), np.inf), np.full(len(warps), -np.inf)
    np.minimum.at(low, which, lo)
    np.maximum.at(high, which, hi)
    block = grouped_rows(warps[:, :3])[1]
    order = np.lexsort((low, block))
    same_block = block[order][1:] == block[order][:-1]
    return bool((same_block & (high[order][:-1] >= low[order][1:])).any())


def _boundary_split(condition: Expr, named: Expr, batch: Batch, dependence: Dependence) -> bool:
    """`tid < n`, `threadIdx.y >= rows` with `n`, `rows` the same for every lane: when each warp
    of a block covers its own range of the thread side, one bound splits at most the warp that
    straddles it, not a share of the block worth reporting.  `named` is `condition` with its
    loads named (`_Namer`), evaluable lane by lane."""
    if not (isinstance(condition, Op) and condition.name in RELATIONS and isinstance(named, Op)
            and named.name == condition.name):
        return False
    levels = [dependence.level(a) for a in condition.args]
    if len(levels) != 2 or sorted(levels)[0] == 3 or max(levels) < 3:
        return False
    block = [batch.env.get(f"bdim.{axis}", 1.0) for axis in "xyz"]
    if math.prod(float(np.max(b)) for b in block) < BOUNDARY_WARPS * 32:
        return False
    return not _overlapping_warps(named.args[levels.index(3)], batch)


def _decided_by(condition: Expr, loop: Loop | None) -> list[Expr]:
    """What decides a branch: its condition; a loop's: its condition and its counter's update."""
    return [condition] if loop is None else [condition, loop.update]


def condition_level(condition: Expr, dependence: Dependence, loop: Loop | None = None) -> int:
    """The widest level (LEVELS' index) a branch's condition, or a loop's condition and update, varies at."""
    return max(dependence.level(p) for p in _decided_by(condition, loop))


def uniformity(condition: Expr, batch: Batch, dependence: Dependence, arguments: list[str],
               loop: Loop | None = None, block_given: bool = False) -> BranchUniformity:
    """Classify a branch (or loop) condition on the batch of lanes that evaluate it.  For loops,
    the counter's update matters as much as the condition.  Whole warps agreeing makes a
    condition block-uniform only under a block the user or the host gave (`block_given`): a
    guessed width says nothing of which warps a real block holds (`tid < 256` in a guess of 256)."""
    parts = _decided_by(condition, loop)
    level = condition_level(condition, dependence, loop)
    executed = batch.active.any(axis=1)
    if level < 3:
        return BranchUniformity(LEVELS[level], 0.0 if executed.any() else None)
    evident = max(dependence.level(p, unknown=0) for p in parts) == 3
    fraction, unresolved = None, False
    if executed.any():
        w = batch.weight * executed
        values = evaluate_on(condition, batch)
        # a warp with one active lane never splits, whatever its lane's value (an unknown one included)
        actual = disagrees(values, batch.active) & (batch.active.sum(axis=1) > 1)
        fraction = float((w * actual).sum() / w.sum())
        unresolved = not loads_in(condition) and \
            bool(np.isnan(np.broadcast_to(values, batch.active.shape)[batch.active]).all())
    if not executed.any():  # never reached under this launch: judge every lane of the sampled warps,
        # and the code alone, not which warps this launch's block holds
        batch = Batch(batch.env, np.ones_like(batch.active), batch.weight, cache=batch.cache)
        block_given = False
        executed = np.ones(batch.rows, dtype=bool)
    groups = _block_groups(batch)  # of the sampled rows: before stand-ins (one value per row or lane) join the env
    namer = _Namer(batch, dependence)
    original, condition = condition, namer(condition if loop is None else _on_iterations(loop))
    named = namer.named
    if named:  # loaded data and uniform results, unknown like arguments are
        batch = namer.batch
    free = frozenset(arguments) | frozenset(named)
    unseen = namer.unseen if loop is not None else set()  # see _splits_with_unseen_aligned
    divergent_rows = may_split(condition, batch, free)
    if loop is not None and loop.carried and not divergent_rows[executed].any():
        exits = _carried_exits(loop, batch)
        divergent_rows = divergent_rows if exits is None else exits
    if not divergent_rows[executed].any():
        # lanes agree; so may whole warps of a block (`(tid + k * bdim) / bdim` at iteration k),
        # unless the condition reads data at per-thread addresses (a stand-in value proves nothing)
        per_thread_data = any(dependence.level(load) == 3 for part in parts for load in loads_in(part))
        splits_blocks = not block_given or per_thread_data or \
            may_split(condition, batch, free, groups)[executed].any()
        evident = evident and (not splits_blocks or per_thread_data or
                               _splits_with_unseen_aligned(condition, batch, free, unseen, executed, groups))
        return BranchUniformity("warp" if splits_blocks else "block", fraction, evident,
                                data_dependent=per_thread_data)
    evident = evident and _splits_with_unseen_aligned(condition, batch, free, unseen, executed, None)
    boundary = loop is None and _boundary_split(original, condition, batch, dependence)
    data = any(dependence.level(load) == 3 for part in parts for load in loads_in(part))
    return BranchUniformity("thread", fraction, evident, boundary, data_dependent=data, unresolved=unresolved)


UNSEEN_ALIGNED = 1024.0  # an unseen size taken as a large power of two: a multiple of any block width


def _splits_with_unseen_aligned(condition: Expr, batch: Batch, free: frozenset[str], unseen: set[str],
                                executed: np.ndarray, groups: np.ndarray | None) -> bool:
    """Does a loop's split survive the names nothing in sight declares (`WARPSPERBLOCK` from a
    header the file does not include) being sizes a block divides?  Padded block-stride loops
    (`j = tid; j < SDIV(n, B) * B; j += B`), the idiom that keeps barriers in loops legal, run the
    same trip count in every thread then: a split that needs the unseen value to be small or odd
    is a guess about it, not evidence.  Branches keep unseen names as unknowns like arguments
    (`ll == ID` with ID unseen splits a warp for most values of ID), and so do values the
    lowering lost (a variable updated in a nested loop).  With `groups`, a split between the
    warps of a block counts."""
    if not unseen:
        return True
    pinned = Batch({**batch.env, **dict.fromkeys(unseen, UNSEEN_ALIGNED)}, batch.active, batch.weight)
    return bool(may_split(condition, pinned, free - unseen, groups)[executed].any())
