"""Data races found on sampled lanes: two threads touch one address, at least one writing, with
nothing ordering them.

The kernel's statements are cut into *epochs* at barriers, in program order; a loop body's last
epoch runs into its first one on the next iteration, which is how a tiled loop without its
second barrier races.  Each write is then joined with every other access to the same array on
the addresses its sampled lanes touch:

- ``shared-race``: the same shared word from two warps of one block in one epoch (and the same
  iteration of every loop a barrier separates);
- ``implicit-warp-sync``: the same shared word from two lanes of one warp with no
  ``__syncwarp()`` between (warp-synchronous code that Volta's independent thread scheduling
  broke; compute-sanitizer's racecheck does not look at it);
- ``global-race``: the same global address from two threads of one block in one epoch, or from
  two blocks at all (nothing orders blocks within a launch); atomics never race.

Addresses computed from loaded data, and lanes behind data-dependent conditions, cannot be joined,
with one exception that is a race whatever the data: a non-atomic read-modify-write whose address
depends on no thread index (`hist[key] += 1`, `if (v > *m) *m = v`) that several lanes may perform
without a barrier between them; updates are lost.  Only when the host fills the index arrays
such an address is loaded from with a permutation (indices.py) do the loads get values and the
lanes' addresses compared.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import networkx as nx
import numpy as np

from .budget import check
from .divergence import Dependence
from .ir import Access, Barrier, Branch, Kernel, Loop, statements
from .sampling import Sampler, evaluate_on
from .sets import common, distinct_rows
from .symbolic import Const, Expr, Load, Op, Opaque, Sym, evaluate, free_symbols, has_opaque, loads_in, op
from .tickets import is_ticket

MAX_PAIRS = 2000  # write/access pairs examined per kind and kernel (machine-generated code holds thousands)
EXACT = 2.0 ** 52  # byte addresses float64 still tells apart (beyond: an absurd default argument)
SIDE_BYTES = 64 * 2 ** 20  # joined rows kept per kernel for the pairs still to come
BLOCKS = 3  # sampled blocks whose lanes are joined: a race inside one block shows in the first; two meet across


def unseen(expr: Expr) -> bool:
    """Does the value rest on data or calls the analysis cannot see (the sampler then lets every
    lane take both sides of a branch on it)?"""
    return bool(loads_in(expr)) or has_opaque(expr)


def _few_values(expr: Expr) -> bool:
    """A constant, or a choice between constants (`p >= 0.5 ? 1 : -1`, a predicted label)."""
    if isinstance(expr, Const):
        return True
    if isinstance(expr, Op) and expr.name == "?:":
        return all(_few_values(a) for a in expr.args[1:])
    return isinstance(expr, Op) and expr.name in ("int", "float") and _few_values(expr.args[0])


def few_lanes(condition: Expr, side: bool, any_equality: bool = False) -> bool:
    """Does taking `side` of `condition` need an equality the sampler cannot decide and that picks
    out few lanes: a tie of two data values, a rank the lowering cannot model
    (`g.thread_rank() == 0` of a coalesced group), data naming one thread (`best == threadIdx.x`)?
    No count of contending lanes can be claimed there.  A flag test of loaded data against a
    constant or a choice of constants (`label[i] == -1`, `label[i] == (p > 0.5 ? 1 : -1)`) may
    hold in every lane, so it is not one of them.  With `any_equality`, so is every equality of
    data with a value that is not a constant (`ridx == currentCol`: a search one element meets)."""
    if not isinstance(condition, Op):
        return False
    if condition.name == "!":
        return few_lanes(condition.args[0], not side, any_equality)
    if condition.name == ("&&" if side else "||"):
        return any(few_lanes(a, side, any_equality) for a in condition.args)
    if condition.name != ("==" if side else "!=") or not unseen(condition):
        return False
    left, right = condition.args
    if any(loads_in(data) and not has_opaque(data) and _few_values(flag) for data, flag in
           ((left, right), (right, left))):
        return False
    if has_opaque(condition) or (unseen(left) and unseen(right)):
        return True
    known = right if unseen(left) else left
    return any_equality or any(name.startswith("tid.") for name in free_symbols(known))


@dataclass(frozen=True)
class Member:
    """An access in an epoch, with where it stands in the wrap-round epochs of barrier loops:
    ``(loop id, part)`` for part ``pre`` (before the loop), ``tail`` (after the body's last
    barrier, iteration i), ``head`` (before the body's first barrier, iteration i + 1) or ``last``
    (after the body's last barrier in the last iteration, meeting what follows the loop)."""

    access: Access
    parts: tuple[tuple[int, str], ...] = ()

    def marked(self, loop: Loop, part: str) -> Member:
        return Member(self.access, self.parts + ((loop.id, part),))


def _epochs(stmts: list, space: str, orders: frozenset[str], current: list, done: list) -> list:
    """Group the accesses to one memory space into barrier-separated epochs (appended to `done`);
    returns the epoch still open at the end of `stmts`."""
    for s in stmts:
        if isinstance(s, Barrier) and s.scope in orders:
            done.append(current)
            current = []
        elif isinstance(s, Access) and s.space == space:
            current.append(Member(s))
        elif isinstance(s, Branch):
            current = _epochs(s.then, space, orders, current, done)
            current = _epochs(s.orelse, space, orders, current, done)
        elif isinstance(s, Loop):
            inner: list = []
            tail = _epochs(s.body, space, orders, [], inner)
            if inner:  # the body's last epoch meets its first on the next iteration
                done.append([m.marked(s, "pre") for m in current] + [m.marked(s, "tail") for m in tail] +
                            [m.marked(s, "head") for m in inner[0]])
                done.extend(inner[1:])
                current = [m.marked(s, "last") for m in tail]  # ... and, in the last iteration, what follows
            else:
                current = current + tail
    return current


def epochs(kernel: Kernel, space: str, orders: frozenset[str]) -> list[list[Member]]:
    """Accesses to `space` grouped between barriers of the scopes in `orders`; made once per kernel
    (the race joins and the checks under smaller blocks and other argument values all ask), and
    not changed by those who ask."""
    known = kernel.__dict__.setdefault("_epochs", {})
    done = known.get((space, orders))
    if done is None:
        done = known[space, orders] = []
        done.append(_epochs(kernel.body, space, orders, [], done))
    return done


def _alignment(a: Member, b: Member) -> dict[int, tuple[int, int]] | None:
    """How the iterations of two members of one wrap-round epoch meet: per loop, the shift to
    subtract from each side's iteration number (a `head` runs one iteration after the `tail` it
    meets); None when a barrier of the loop orders them (before the loop vs after its first barrier)."""
    parts_a, parts_b = dict(a.parts), dict(b.parts)
    shifts = {}
    for loop in parts_a.keys() | parts_b.keys():
        # a member outside the loop met its wrap-round epoch through an enclosing loop's: it runs
        # before the loop starts or after it ends, on the far side of the loop's barrier either way
        pair = {parts_a.get(loop, "pre"), parts_b.get(loop, "pre")}
        if pair == {"pre", "tail"}:
            return None
        if pair == {"head", "tail"}:
            shifts[loop] = (int(parts_a[loop] == "head"), int(parts_b[loop] == "head"))
    return shifts


def _in_last_iteration(lanes: Lanes, column: int) -> Lanes:
    """The lanes at the last sampled iteration of one loop, with that iteration counted as 0 (the
    other side, after the loop, has no iteration of it)."""
    when = lanes.when[:, column]
    keep = when == when.max()
    later = lanes.when[keep].copy()
    later[:, column] = 0
    return replace(lanes, block=lanes.block[keep], warp=lanes.warp[keep], thread=lanes.thread[keep], when=later,
                   address=lanes.address[keep], stored=lambda: lanes.value[keep])


@dataclass
class Lanes:
    """Sampled lanes performing one access: who (block, warp, thread), when (iteration of every
    barrier-separated enclosing loop) and where (byte address)."""

    block: np.ndarray
    warp: np.ndarray
    thread: np.ndarray
    when: np.ndarray  # (n, loops)
    address: np.ndarray
    size: int
    stored: Callable[[], np.ndarray]  # gives `value`, asked only where two `who`s meet on a key (_clash)
    spans: dict[int, tuple[int, int]] = field(default_factory=dict, init=False, repr=False)  # span(), per granule

    @cached_property
    def value(self) -> np.ndarray:
        """What a plain store writes, as a stand-in number (equal numbers, equal values); NaN: unknown."""
        return self.stored()

    @cached_property
    def known(self) -> bool:
        """Is every lane's stored value known?"""
        return bool(np.isfinite(self.value).all())

    @cached_property
    def extent(self) -> tuple[float, float]:
        """The lowest and the highest address."""
        return float(self.address.min()), float(self.address.max())

    def span(self, granule: int) -> tuple[int, int]:
        """The first and the last `granule`-byte unit the lanes cover (`_apart` asks for every partner)."""
        found = self.spans.get(granule)
        if found is None:
            low, high = self.extent
            found = self.spans[granule] = (math.floor(low / granule),
                                           math.floor(high / granule) + max(1, self.size // granule) - 1)
        return found

    def words(self, granule: int) -> tuple[np.ndarray | None, np.ndarray]:
        """(row index, granule index) for every `granule`-byte unit the access covers; the row
        indices are None where each lane covers one unit (the rows are the lanes)."""
        per = max(1, self.size // granule)
        if per == 1:
            return None, np.floor(self.address / granule)
        rows = np.repeat(np.arange(self.address.size), per)
        units = np.floor(self.address / granule)[:, None] + np.arange(per)[None, :]
        return rows, units.ravel()


def _apart(a: Lanes, b: Lanes, granule: int) -> bool:
    """Do the `granule`-byte units the two accesses' lanes cover lie in disjoint ranges?"""
    (low_a, high_a), (low_b, high_b) = a.span(granule), b.span(granule)
    return high_a < low_b or high_b < low_a


def _originals(batch, copies: tuple[str, ...]) -> np.ndarray:
    """Lanes at index 0 along every axis of `copies`: the others only repeat their work (races());
    kept in the batch's cache, as every access sampled on it asks."""
    key = (_originals, copies)
    keep = batch.cache.get(key)
    if keep is None:
        keep = np.ones(batch.active.shape, dtype=bool)
        for symbol in copies:
            keep &= np.broadcast_to(batch.env[symbol], keep.shape) == 0
        batch.cache[key] = keep
    return keep


def _linear_ids(batch) -> tuple[np.ndarray, np.ndarray]:
    """(block, thread) per lane of a batch: the linear block index in the grid and the linear
    thread index in the block, broadcast to the batch's (rows, 32) shape; kept in the batch's
    cache (valid for its env), since every access and stored value sampled on it asks."""
    cached = batch.cache.get(_linear_ids)
    if cached is None:
        env, shape = batch.env, batch.active.shape
        block = env["bid.x"] + env["gdim.x"] * (env["bid.y"] + env["gdim.y"] * env["bid.z"])
        thread = env["tid.x"] + env["bdim.x"] * (env["tid.y"] + env["bdim.y"] * env["tid.z"])
        cached = batch.cache[_linear_ids] = np.broadcast_to(block, shape), np.broadcast_to(thread, shape)
    return cached


class LaneTable:
    """Sampled lanes per access, memoised: several pairs share each side."""

    def __init__(self, kernel: Kernel, graph: nx.DiGraph, sampler: Sampler, copies: tuple[str, ...] = (),
                 guessed: frozenset[str] = frozenset()):
        self.graph, self.sampler = graph, sampler
        self.extents = {s.name: s.type.size for s in kernel.shared if not s.dynamic}
        self.copies = copies  # thread and block indices whose lanes copy index 0's work (see races())
        self.guessed = guessed  # arguments whose values were made up: addresses built from them prove nothing
        self.spun_on = kernel.spun_on  # volatile words a loop waits on: a hand-off the lanes do not model
        self.dependence = Dependence.of(kernel)
        self.accesses = {s.id: s for s, _ in statements(kernel) if isinstance(s, Access)}
        self.carried = {name: parts for s, _ in statements(kernel) if isinstance(s, Loop)
                        for name, parts in s.carried.items()}  # loop-carried values: what they come from
        self.cache: dict[tuple, Lanes | None] = {}
        self.renamed: dict[int, tuple[Expr, Expr]] = {}  # stored values with loads as symbols (_stand_in)
        self.sides: dict[tuple, _Side] = {}  # joined rows per side (_side)
        self.frames: dict[tuple, _Frame] = {}  # codings of the sides, per array, kind and key columns
        self.side_bytes = 0

    def get(self, access: Access, loops: tuple[Loop, ...], in_block: bool = False) -> Lanes | None:
        key = (access.id, loops, in_block)  # loops hash by identity
        if key not in self.cache:
            self.cache[key] = self._sample(access, loops, in_block)
        return self.cache[key]

    def keep(self, key: tuple, side: _Side) -> None:
        """Keep a side (it holds its lanes, so that their id is not reused), within SIDE_BYTES."""
        size = side.keys.nbytes * 2 + side.rows.nbytes
        if self.side_bytes + size > SIDE_BYTES:
            self.sides.clear()
            self.side_bytes = 0
        self.sides[key] = side
        self.side_bytes += size

    def assumed(self, branch: Branch, side: bool) -> bool:
        """May a race inside one block take lanes behind this data-dependent branch as present?
        When the whole block decides it alike (`if (level[v] == iter)` with v the block's vertex),
        every thread of a block that takes it is there; when threads decide it each on their own
        data (`if (status[nei] == 0) s_flag = 1;`), any of them may be, except behind an equality
        that picks out few lanes (a tie of two data values, `best == threadIdx.x`).  Lanes on the
        two sides of one such branch are never joined when what it tests is the same for the whole
        block (_exclusive)."""
        condition = branch.condition
        return self.dependence.level(condition) <= 1 or not few_lanes(condition, side, any_equality=True)

    def _sample(self, access: Access, loops: tuple[Loop, ...], in_block: bool) -> Lanes | None:
        if access.id not in self.graph:
            return None
        context = self.graph.nodes[access.id]["context"]
        batch = self.sampler.batch(context)
        address = evaluate_on(access.offset, batch)
        active = batch.active & (np.abs(address) < EXACT)  # also drops NaN: an address the lanes cannot know
        for item in context:  # lanes that only may take a data-dependent branch prove nothing between blocks
            if not isinstance(item, Loop) and not (in_block and self.assumed(*item)):
                active &= ~np.isnan(evaluate_on(item[0].condition, batch))
        extent = self.extents.get(access.array) if access.space == "shared" else None
        if extent:  # lanes past the end of a shared array are another bug (or a wrongly guessed block)
            active &= address + access.size <= extent
        active &= _originals(batch, self.copies)
        block, thread = _linear_ids(batch)
        present = block[:, 0][active.any(axis=1)]
        if not present.size:
            return None
        # the first BLOCKS blocks with active lanes: a row of a block before the last of them that has none adds none
        active &= (block[:, 0] <= np.unique(present)[:BLOCKS][-1])[:, None]
        when = np.stack([np.broadcast_to(batch.env.get(loop.iteration, 0.0), active.shape)[active] for loop in loops],
                        axis=1) if loops else np.zeros((int(active.sum()), 0))
        accesses, renamed = self.accesses, self.renamed  # not the table: lanes it keeps would hold it in a cycle
        return Lanes(block[active], np.floor(thread[active] / 32), thread[active], when, address[active],
                     access.size, lambda: _stored(access, batch, active, accesses, renamed))


def _stored(access: Access, batch, active: np.ndarray, accesses: dict[int, Access],
            renamed: dict[int, tuple[Expr, Expr]]) -> np.ndarray:
    """The stand-in numbers an access's active lanes store (_stand_in), NaN for a load."""
    if access.value is None:
        return np.full(int(active.sum()), np.nan)
    return np.broadcast_to(_stand_in(access.value, batch, accesses, renamed), active.shape)[active]


def _codes(columns: Sequence[np.ndarray]) -> np.ndarray:
    """Each row of integer-valued `columns` (1-D, of one length) as one int64 (equal rows, equal
    codes), for fast 1-D set operations: a mixed radix over each column's range (a column spread
    too wide is densified first), the key densified whenever the radix would overflow."""
    key = np.zeros(len(columns[0]), dtype=np.int64)
    span = 1
    for column in columns:
        low, high = column.min(initial=0.0), column.max(initial=0.0)
        if high - low < 2 ** 31:
            codes, width = (column - low).astype(np.int64), int(high - low) + 1
        else:
            codes = np.unique(column, return_inverse=True)[1].astype(np.int64)
            width = int(codes.max(initial=0)) + 1
        if span * width >= 2 ** 62:
            key = np.unique(key, return_inverse=True)[1].astype(np.int64)
            span = int(key.max(initial=0)) + 1
        key = key * width + codes
        span *= width
    return key


def _stand_in(value: Expr, batch, accesses: dict[int, Access], renamed: dict[int, tuple[Expr, Expr]]) -> np.ndarray:
    """Per lane, a number that is equal where the stored values are: loaded data stands for the
    address it came from (two loads of one word give one value; a shared word is one per block).
    `renamed` keeps each value's tree with its loads as symbols, made once per kernel."""
    named = _loads_as_symbols(value, accesses, renamed)
    block = _linear_ids(batch)[0]
    env: dict[str, np.ndarray] = {}
    for load in loads_in(value):
        source = accesses.get(load.access_id)
        if source is not None:
            word = evaluate_on(source.offset, batch) * 4096 + zlib.crc32(source.array.encode())
            env[f"load{load.access_id}"] = word + block * 2.0 ** 40 if source.space == "shared" else word
    # the load symbols' values follow from the batch alone, so the batch's cache holds for them too
    return np.asarray(evaluate(named, {**batch.env, **env}, batch.cache), dtype=float)


def _loads_as_symbols(expr: Expr, accesses: dict[int, Access], renamed: dict[int, tuple[Expr, Expr]]) -> Expr:
    """`expr` with every load of a known access as the symbol `load<id>`; subtrees without one are
    kept as they are (the lowering shares them between trees)."""
    if isinstance(expr, Load):
        return Sym(f"load{expr.access_id}", expr.is_int) if expr.access_id in accesses else expr
    if not isinstance(expr, Op) or not loads_in(expr):
        return expr
    hit = renamed.get(id(expr))
    if hit is None:
        args = tuple(_loads_as_symbols(a, accesses, renamed) for a in expr.args)
        hit = renamed[id(expr)] = (expr, expr if args == expr.args else op(expr.name, *args, is_int=expr.is_int))
    return hit[1]  # the entry holds `expr`, so its id is not reused while the table lives


class _Frame:
    """A mixed radix that codes alike, and in order, the keys of every side the pairs of one array
    and kind join (_clash), so that a pair only looks its sides' codes up: per key column the least
    and the greatest value of the sides made so far, widened (a new `version`) as one falls outside."""

    def __init__(self) -> None:
        self.low: list[float] = []
        self.high: list[float] = []
        self.version = 0

    def cover(self, columns: Sequence[np.ndarray]) -> None:
        low, high = [float(c.min()) for c in columns], [float(c.max()) for c in columns]
        if self.low:
            low, high = list(map(min, low, self.low)), list(map(max, high, self.high))
        if low != self.low or high != self.high:
            self.low, self.high, self.version = low, high, self.version + 1

    def codes(self, columns: Sequence[np.ndarray]) -> np.ndarray | None:
        """The rows' codes, or None when the radix would not fit an int64."""
        widths = [int(high - low) + 1 for low, high in zip(self.low, self.high)]
        if math.prod(widths) >= 2 ** 62:
            return None
        key = np.zeros(len(columns[0]), dtype=np.int64)
        for column, low, width in zip(columns, self.low, widths):
            key = key * width + (column - low).astype(np.int64)
        return key


@dataclass
class _Side:
    """One side of a join (`_side`): its distinct keys (unit, and the lanes' block, warp or
    iteration as the kind asks) in lexicographic order, per key the least and the greatest `who`
    reaching it, and the lane behind each of its rows in key order (`rows`; each key's rows begin
    at `starts`), for the values stored; the keys' codes in `frame` at its `version`."""

    keys: np.ndarray
    who: tuple[np.ndarray, np.ndarray]
    lanes: Lanes
    rows: np.ndarray
    starts: np.ndarray
    frame: _Frame
    version: int
    codes: np.ndarray | None

    @cached_property
    def value(self) -> tuple[np.ndarray, np.ndarray]:
        """Per key the least and the greatest value stored: made only when two `who`s meet on a key."""
        return _spans(self.lanes.value[self.rows], self.starts)

    def coded(self) -> np.ndarray | None:
        """The keys' codes in the frame as it is now (coded again if it was widened since)."""
        if self.version != self.frame.version:
            self.codes, self.version = self.frame.codes(self.keys.T), self.frame.version
        return self.codes


def _spans(column: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The least and the greatest of `column` in each run that begins at one of `starts`."""
    return np.minimum.reduceat(column, starts), np.maximum.reduceat(column, starts)


def _clash(a: _Side, b: _Side, stores: bool) -> bool:
    """Is there a key both sides reach from two different `who`s (storing, when both are `stores`
    of known values, two different values: equal values leave the word the same whoever wins)?
    The keys of both sides are coded alike by a coding that keeps their order, so nothing is
    sorted per pair: their frame's, where it fits an int64."""
    if a is b:
        several = a.who[0] != a.who[1]
        if stores and several.any() and a.lanes.known:
            several &= a.value[0] != a.value[1]
        return bool(several.any())
    key_a, key_b = a.coded(), b.coded()
    if key_a is None or key_b is None:
        key = _codes(np.concatenate([a.keys, b.keys]).T)
        key_a, key_b = key[:len(a.keys)], key[len(a.keys):]
    at_a, at_b = common(key_a, key_b)  # each common key once per side, in one order

    def spread(x: tuple[np.ndarray, np.ndarray], y: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        return np.minimum(x[0][at_a], y[0][at_b]) != np.maximum(x[1][at_a], y[1][at_b])
    several = spread(a.who, b.who)
    if stores and several.any() and a.lanes.known and b.lanes.known:
        several &= spread(a.value, b.value)
    return bool(several.any())


def _side(table: LaneTable, lanes: Lanes, array: str, granule: int, kind: _Kind, shift: np.ndarray) -> _Side:
    """The lanes' rows to join (one per lane and covered unit: the kind's key columns, the unit,
    and `who`) grouped by key, made once per side: a write meets many partners, and a partner
    many writes.  The keys are coded in the frame of the sides of `array` and `kind` (_Frame)."""
    cached = (id(lanes), granule, kind.key, kind.who, shift.tobytes())
    hit = table.sides.get(cached)
    if hit is None:
        rows, units = lanes.words(granule)

        def per_row(column: np.ndarray) -> np.ndarray:
            return column if rows is None else column[rows]
        columns = list((per_row(lanes.when) - shift).T) if "when" in kind.key else []
        columns += [per_row(getattr(lanes, k)) for k in kind.key if k != "when"] + [units]
        frame = table.frames.setdefault((array, granule, kind.key, len(columns)), _Frame())
        frame.cover(columns)
        framed = frame.codes(columns)
        key = _codes(columns) if framed is None else framed
        order = np.argsort(key, kind="stable")  # the coding keeps the keys' lexicographic order
        key = key[order]
        starts = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
        first = order[starts]
        side = _Side(np.stack([column[first] for column in columns], axis=1),
                     _spans(per_row(getattr(lanes, kind.who))[order], starts), lanes,
                     order if rows is None else rows[order], starts, frame, frame.version,
                     None if framed is None else key[starts])
        table.keep(cached, side)
        hit = table.sides[cached]
    return hit


def _separating_loops(graph: nx.DiGraph, access: Access, orders: frozenset[str]) -> tuple[Loop, ...]:
    """Enclosing loops with a barrier in their body: their iterations are ordered.  Kept on the
    graph per access and scopes: every pair asks of both its accesses."""
    known = graph.graph.setdefault("separating_loops", {})
    found = known.get((access.id, orders))
    if found is None:
        context = graph.nodes[access.id]["context"] if access.id in graph else ()
        scopes = _barrier_scopes(graph)
        found = known[access.id, orders] = tuple(c for c in context if isinstance(c, Loop) and
                                                 scopes.get(c, frozenset()) & orders)
    return found


def _barrier_scopes(graph: nx.DiGraph) -> dict[Loop, frozenset[str]]:
    """The scopes of the barriers inside each loop's body, gathered once per kernel and kept on the
    graph (walking a loop's body per access pair cost minutes on kernels of thousands of accesses)."""
    if "barrier_scopes" not in graph.graph:
        scopes: dict[Loop, set[str]] = {}
        for _, data in graph.nodes(data=True):
            if isinstance(data["stmt"], Barrier):
                for loop in (c for c in data["context"] if isinstance(c, Loop)):
                    scopes.setdefault(loop, set()).add(data["stmt"].scope)
        graph.graph["barrier_scopes"] = {loop: frozenset(s) for loop, s in scopes.items()}
    return graph.graph["barrier_scopes"]


@dataclass(frozen=True)
class _Kind:
    name: str
    space: str
    orders: frozenset[str]  # barrier scopes that order the accesses
    key: tuple[str, ...]  # lanes must agree on these (and the address) to clash ...
    who: str  # ... and differ on this (one instruction may race with itself: lanes of a warp too)
    same_for: int  # dependence level (divergence.Dependence) of a value every `who` that clashes shares


BLOCK, WARP_OR_BLOCK, GRID = frozenset({"block", "grid"}), frozenset({"warp", "block", "grid"}), frozenset({"grid"})
SHARED = _Kind("shared-race", "shared", BLOCK, ("block", "when"), "warp", 1)
WARP = _Kind("implicit-warp-sync", "shared", WARP_OR_BLOCK, ("block", "warp", "when"), "thread", 2)
GLOBAL_IN_BLOCK = _Kind("global-race", "global", BLOCK, ("block", "when"), "thread", 1)
GLOBAL_ACROSS_BLOCKS = _Kind("global-race", "global", GRID, ("when",), "block", 0)


def _same_value(kind: _Kind, w: Access, other: Access, dependence: Dependence) -> bool:
    """Two plain stores of one value that every clashing thread computes alike (`bias = b[blockIdx.z]`
    by every thread of the block; `*flag = __syncthreads_and(c)`): whichever lands last, the word
    holds that value."""
    return other.kind == "store" and w.value is not None and other.value is not None and \
        (other is w or str(w.value) == str(other.value)) and dependence.level(w.value) <= kind.same_for


def _written_back(w: Access, accesses: dict[int, Access]) -> bool:
    """A store of the value its thread loaded from the same place (`p[i] = pi` for the members of a
    copy of p[i] it never changed): the word keeps its value, so readers see the same either way;
    only another thread's store to it can be lost."""
    source = accesses.get(w.value.access_id) if isinstance(w.value, Load) else None
    return source is not None and source.kind == "load" and source.array == w.array and \
        source.size == w.size and str(source.offset) == str(w.offset)


def _read_back(kind: _Kind, mw: Member, mo: Member, graph: nx.DiGraph, dependence: Dependence) -> bool:
    """A load of a word its own thread stored first, on every path to the load, with a value every
    clashing thread stores alike (`*flag = __syncthreads_and(c)` in one iteration, `if (*flag)` in the
    next): whichever store lands last, the reader gets that value."""
    w, other = mw.access, mo.access
    if other.kind != "load" or w.value is None or str(w.offset) != str(other.offset) or \
            dependence.level(w.value) > kind.same_for or w.id not in graph or other.id not in graph:
        return False
    parts_w, parts_o = dict(mw.parts), dict(mo.parts)
    order = {(parts_w.get(loop), parts_o.get(loop)) for loop in parts_w.keys() | parts_o.keys()}
    if order - {("tail", "head"), ("pre", "head"), ("tail", "tail"), ("head", "head"), ("pre", "pre")} or \
            (not order - {("tail", "tail"), ("head", "head"), ("pre", "pre")} and w.id > other.id):
        return False  # the load may run first
    before, context = graph.nodes[w.id]["context"], graph.nodes[other.id]["context"]
    return len(before) <= len(context) and all(a is b for a, b in zip(before, context))


def _pairs(groups: list[list[Member]], atomic_reads: bool = False) -> Iterator[tuple[Member, Member]]:
    """Every (write, other access) pair of one array within an epoch.  With `atomic_reads`, an
    atomic counts as a write against plain loads (`atomicAdd(&s_count, c)` by every thread, then
    thread 0 reads `s_count` before a barrier)."""
    count = 0
    writes = ("store", "atomic") if atomic_reads else ("store",)
    for group in groups:
        for w in (m for m in group if m.access.kind in writes):
            for other in group:
                # a plain store and another thread's atomic on one word race too (`*acc = 0` in one
                # block, `atomicAdd(acc, v)` in another): atomics order only atomics
                if other.access.array != w.access.array:
                    continue
                if other.access.kind == "store" and other.access.id < w.access.id:
                    continue
                if w.access.kind == "atomic" and other.access.kind != "load":
                    continue
                count += 1
                if count > MAX_PAIRS:
                    return
                yield w, other


def _unseen_parts(expr: Expr) -> Iterator[Expr]:
    """The loads and lost values a condition rests on (what makes it unknown to the sampler)."""
    if isinstance(expr, Load | Opaque):
        yield expr
    elif isinstance(expr, Op) and (loads_in(expr) or has_opaque(expr)):
        for a in expr.args:
            yield from _unseen_parts(a)


def _tested_flag(w: Access, other: Access, graph: nx.DiGraph, dependence: Dependence) -> bool:
    """A store of one value every writer shares (`found = 1`) against a load in the test guarding
    it (`if (!found && x > 0) found = 1;`): the read only decides whether to store what is, or is
    about to be, there already."""
    if other.kind != "load" or w.value is None or dependence.level(w.value) > 0 or w.id not in graph:
        return False
    return any(not isinstance(item, Loop) and any(ld.access_id == other.id for ld in loads_in(item[0].condition))
               for item in graph.nodes[w.id]["context"])


def _exclusive(w: Access, other: Access, graph: nx.DiGraph, dependence: Dependence) -> bool:
    """Do the two accesses sit on the two sides of a branch whose unknown parts are the same for
    the whole block (`if (s_flag) ... else ...`; `if (p_Np < 12 && n == 0) ... else if (n < 12 &&
    p_Np >= 12) ...` with p_Np a macro of a header the lowering could not read)?  The sampler lets
    lanes take both sides of it, but one value of those parts decides every lane's side."""
    if w.id not in graph or other.id not in graph:
        return False
    sides = {item[0].id: item[1] for item in graph.nodes[w.id]["context"] if not isinstance(item, Loop)}
    return any(not isinstance(item, Loop) and sides.get(item[0].id, item[1]) != item[1] and
               unseen(item[0].condition) and
               all(dependence.level(part, unknown=0) <= 1 for part in _unseen_parts(item[0].condition))
               for item in graph.nodes[other.id]["context"])


def _found(kind: _Kind, groups: list[list[Member]], table: LaneTable, graph: nx.DiGraph, reported: set[int],
           deferred: list | None = None, only: set[tuple[int, int]] | None = None):
    """The first clashing partner of every write of `kind` not reported yet (one finding per write).
    A pair whose addresses use a made-up argument is put in `deferred` instead (judged at several
    values of it, _at_values); `only` restricts the pairs to those (by access ids)."""
    # on shared memory a plain read of a word other warps update atomically races with them (a
    # block's counter read before the barrier); on global memory it is how graph codes poll labels
    # others lower with atomicMin, values that only ever move one way: not reported there
    for mw, mo in _pairs(groups, atomic_reads=kind.space == "shared"):
        check()
        w, other = mw.access, mo.access
        if only is not None and (w.id, other.id) not in only:
            continue
        shifts = _alignment(mw, mo)
        if w.id in reported or shifts is None or w.array in table.spun_on or \
                _same_value(kind, w, other, table.dependence) or _read_back(kind, mw, mo, graph, table.dependence) or \
                (_written_back(w, table.accesses) and (other.kind == "load" or _written_back(other, table.accesses))):
            continue
        if table.guessed and table.guessed & (free_symbols(w.offset) | free_symbols(other.offset)):
            if deferred is not None:
                deferred.append((w.id, other.id))
            continue
        loops = tuple(dict.fromkeys(_separating_loops(graph, w, kind.orders) +
                                    _separating_loops(graph, other, kind.orders)))
        in_block = kind.space == "shared"
        if (in_block and _exclusive(w, other, graph, table.dependence)) or \
                _tested_flag(w, other, graph, table.dependence):
            continue
        a = table.get(w, loops, in_block)
        b = None if a is None else table.get(other, loops, in_block)  # no lanes: no partner to sample
        if b is None:
            continue
        parts_w, parts_o = dict(mw.parts), dict(mo.parts)
        for column, loop in enumerate(loops):  # after the loop: only its last iteration's tail is unordered
            if {parts_w.get(loop.id, "pre"), parts_o.get(loop.id, "pre")} == {"pre", "last"}:
                a, b = (_in_last_iteration(lanes, column) if parts.get(loop.id) == "last" else lanes
                        for lanes, parts in ((a, parts_w), (b, parts_o)))
        granule = min(w.size, other.size)
        if granule <= 0:
            continue  # an access of no bytes (`s[i * s = v]`: an array assigned into its own index) covers no unit
        if other is not w and _apart(a, b, granule):
            continue  # no unit in common: nothing to join (most pairs of machine-generated code)
        shift_a, shift_b = (np.array([shifts.get(loop.id, (0, 0))[side] for loop in loops]) for side in (0, 1))
        side_a = _side(table, a, w.array, granule, kind, shift_a)
        clash = _clash(side_a, side_a if other is w else _side(table, b, w.array, granule, kind, shift_b),
                       other.kind == "store")
        if clash:
            reported.add(w.id)
            yield w, other


def _indexed_by(expr, prefix: str, loops: dict[str, Loop], seen: frozenset[str] = frozenset()) -> bool:
    """Does a thread (`tid.`) or block (`bid.`) index enter `expr` other than through loaded data
    (loop counters followed)?  A value the lowering could not follow may hide one: yes."""
    if has_opaque(expr):
        return True
    for name in free_symbols(expr):
        if name.startswith(prefix):
            return True
        loop = loops.get(name)
        if loop is not None and name not in seen and any(
                _indexed_by(part, prefix, loops, seen | {name}) for part in (loop.init, loop.update)):
            return True
    return False


def _single_passer(condition: Expr, batch, dependence: Dependence) -> int:
    """How many threads at most pass `condition` (the then side of a branch): 2 for one thread of
    the grid (`atomicInc(&done, n) == n - 1`: the last block's ticket), 1 for one thread per block
    (`best[b] == threadIdx.x`: a block-wide value naming one thread), 0 for no such bound.  Data
    decide which thread, not whether more than one may."""
    if isinstance(condition, Op) and condition.name == "&&":
        return max(_single_passer(c, batch, dependence) for c in condition.args)
    if not (isinstance(condition, Op) and condition.name == "==" and len(condition.args) == 2):
        return 0
    best = 0
    for mine, theirs in (condition.args, condition.args[::-1]):
        if is_ticket(mine) and dependence.level(theirs) == 0:
            return 2
        if dependence.level(theirs) <= 1 and dependence.level(mine) == 3 and not loads_in(mine) and \
                not has_opaque(mine):
            ids = np.broadcast_to(evaluate_on(mine, batch), batch.active.shape)
            pairs = np.stack([_linear_ids(batch)[0].ravel(), ids.ravel()], axis=1)
            if np.isfinite(pairs).all() and len(distinct_rows(pairs)) == _threads_sampled(batch):
                best = 1  # a distinct value per thread of a block: at most one equals the block's value
    return best


def _threads_sampled(batch) -> int:
    """How many distinct (block, thread) pairs the batch's lanes hold, counted once per batch."""
    count = batch.cache.get(_threads_sampled)
    if count is None:
        block, thread = _linear_ids(batch)
        count = batch.cache[_threads_sampled] = len(distinct_rows(np.stack([block.ravel(), thread.ravel()], axis=1)))
    return count


def _reset_before(w: Access, earlier: list[Access], graph: nx.DiGraph) -> bool:
    """Does the thread overwrite the word at `w`'s data-dependent address, with a value not read
    from it, before updating it, on every path that reaches `w` (`id = list[i]; size[id] = 0; ...
    size[id]++`)?  Code that resets a word it then builds on treats it as its own: the word is
    owned through the index data, not shared, and atomics would not be the fix if it were."""
    if not loads_in(w.offset):
        return False
    context = graph.nodes[w.id]["context"]
    word = {a.id for a in earlier if a.array == w.array and str(a.offset) == str(w.offset)}
    for s in earlier:
        if s.id not in word or s.kind != "store" or s.value is None or s.id not in graph or \
                any(ld.access_id in word for ld in loads_in(s.value)):
            continue
        before = graph.nodes[s.id]["context"]
        if len(before) <= len(context) and all(a is b for a, b in zip(before, context)):
            return True
    return False


def _with_loads(expr: Expr, values: dict[int, Expr]) -> Expr:
    """`expr` with the loads in `values` replaced by what they read."""
    if isinstance(expr, Load):
        return values.get(expr.access_id, expr)
    if isinstance(expr, Op):
        return op(expr.name, *(_with_loads(a, values) for a in expr.args), is_int=expr.is_int)
    return expr


def _permuted(w: Access, accesses: dict[int, Access], index_fills: dict[str, tuple[int, int]], batch) -> bool:
    """Is `w`'s address read from index arrays the host fills with a distinct affine function of
    the position (`idx[j] = a*j + b`, indices.py), so that two threads never reach one word?  The
    loads are replaced by the values they read and the sampled lanes' addresses compared."""
    values: dict[int, Expr] = {}
    for load in loads_in(w.offset):
        source = accesses.get(load.access_id)
        fill = index_fills.get(source.array) if source is not None and not loads_in(source.offset) and \
            not has_opaque(source.offset) else None
        if fill is None or any(a.array == source.array and a.kind != "load" for a in accesses.values()):
            return False
        values[load.access_id] = op("+", op("*", Const(float(fill[0])), op("/", source.offset, Const(source.size))),
                                    Const(float(fill[1])))
    address = evaluate_on(_with_loads(w.offset, values), batch)
    block, in_block = _linear_ids(batch)
    lanes = np.stack([address[batch.active], (block * 1024 + in_block)[batch.active]], axis=1)
    if not np.isfinite(lanes).all():
        return False
    pairs = np.unique(lanes, axis=0)
    return not (np.diff(pairs[:, 0]) == 0).any()  # sorted by address: a repeat is two threads on one word


def _unordered_updates(kernel: Kernel, graph: nx.DiGraph, table: LaneTable, loops: dict[str, Loop],
                       index_fills: dict[str, tuple[int, int]]) -> Iterator[tuple[Access, str]]:
    """Non-atomic read-modify-writes (`hist[key] += 1`, `if (v > *m) *m = v`) at an address that
    thread indices do not keep apart (_shared_words), which two lanes may perform unordered: in
    one block and one barrier interval, or, for a global address the same in every block, in two
    blocks.  Data-dependent conditions count as possibly taken: which lanes take them does not
    matter, only that more than one may.  Each comes with the widest scope whose threads meet on a
    word: grid, block (two warps) or warp (two lanes of one, no __syncwarp between)."""
    memory = [s for s, _ in statements(kernel) if isinstance(s, Access) and s.space in ("shared", "global")]
    sampler, dependence = table.sampler, table.dependence
    accesses = {s.id: s for s in memory}
    loads: dict[str, list[Access]] = {}  # the loads of each array
    for r in memory:
        if r.kind == "load":
            loads.setdefault(r.array, []).append(r)
    words: dict[str, dict[str, set[int]]] = {}  # per array, its loads by offset: spelled once a store asks
    for n, w in enumerate(memory):
        if w.kind != "store" or w.id not in graph or w.array in kernel.spun_on:
            continue
        context = graph.nodes[w.id]["context"]
        guards = {ld.access_id for item in context if not isinstance(item, Loop) for ld in loads_in(item[0].condition)}
        # a load of the word `w` stores to, on its line or in a test guarding it (offsets spelled only for those)
        if not any((r.line == w.line or r.id in guards) and str(r.offset) == str(w.offset)
                   for r in loads.get(w.array, ())):
            continue
        if w.array not in words:
            words[w.array] = {}
            for r in loads[w.array]:
                words[w.array].setdefault(str(r.offset), set()).add(r.id)
        word = words[w.array][str(w.offset)]  # loads of the word `w` stores to
        # `*c = *c + 1`: each writer stores what it read, plus one
        rereads = w.value is not None and any(ld.access_id in word for ld in loads_in(w.value))
        if w.value is not None and dependence.level(w.value) == 0 and not rereads:
            continue  # `flag = 1`: every writer stores one value
        if w.value is not None and str(w.offset) == str(op("*", w.value, Const(w.size))):
            continue  # `a[x] = x`: every writer of an element stores that element's one value
        if _reset_before(w, memory[:n], graph):
            continue
        batch = sampler.batch(context)
        if loads_in(w.offset) and _permuted(w, accesses, index_fills, batch):
            continue
        same_everywhere = w.space == "global" and not loads_in(w.offset) and not _indexed_by(w.offset, "bid.", loops)
        passers = max((_single_passer(item[0].condition, batch, dependence) for item in context
                       if not isinstance(item, Loop) and item[1]), default=0)
        if passers == 2 or (passers == 1 and not same_everywhere):
            continue
        lanes = _shared_words(w, batch, table, loops)
        if lanes is None:
            continue
        address, active = lanes
        block, in_block = _linear_ids(batch)
        if passers == 1 or (w.value is not None and dependence.level(w.value) <= 1 and not rereads):
            in_block = np.zeros_like(in_block)  # one writer per block, or all alike (a vote): only blocks clash
        thread = block * 1024 + in_block  # unique in the grid (at most 1024 threads a block)
        if same_everywhere and _meet([*_iterations(graph, w, GRID, batch), address], block, active):
            yield w, "grid"  # two blocks: nothing orders them
        elif _meet([block, *_iterations(graph, w, BLOCK, batch), address], thread // 32, active):
            yield w, "block"  # two warps between block barriers
        elif _meet([block, *_iterations(graph, w, WARP_OR_BLOCK, batch), address], thread, active):
            yield w, "warp"  # two lanes of one warp between warp barriers (a warp's own slice)
        elif w.space == "global" and loads_in(w.offset) and not _indexed_by(w.offset, "tid.", loops) and \
                _meet([*_iterations(graph, w, GRID, batch), address], block, active):
            # an index loaded from data alone (`label[nlist[i]]`): two blocks may load the same one; not
            # when a thread index enters it beside the data (`val[start[col] + tid]`: a block's own segment)
            yield w, "grid"


def _index_words(expr: Expr, accesses: dict[int, Access], loops: dict[str, Loop]) -> set[tuple[str, str]]:
    """The words (array, offset) an address loads its index from, and those the indices of those
    loads and the loop counters in it (from their first value) load theirs from."""
    words: set[tuple[str, str]] = set()
    todo, seen = [expr], set()
    while todo:
        e = todo.pop()
        for ld in loads_in(e):
            source = accesses.get(ld.access_id)
            if source is not None and source.id not in seen:
                seen.add(source.id)
                words.add((source.array, str(source.offset)))
                todo.append(source.offset)
        for name in free_symbols(e):
            loop = loops.get(name)
            if loop is not None and name not in seen:
                seen.add(name)
                todo.append(loop.init)
    return words


def _elsewhere(read: Access, w: Access, accesses: dict[int, Access], loops: dict[str, Loop]) -> bool:
    """Does `read` reach the array other than through `w`'s own index: at the thread's own element
    (`label[v]` beside a store to `label[big]`) or through other index data (`label[sp[e]]` beside
    `label[nlist[e]]`)?  A read at the same index, or at another element of the same loaded
    segment (`result[eidx]` beside `result[++eidx]` with `result = extrema + offsets[t]`), is the
    thread's own element reached through a permutation or its own segment."""
    if str(read.offset) == str(w.offset):
        return False
    own = _index_words(read.offset, accesses, loops)
    return not own or not own & _index_words(w.offset, accesses, loops)


def _scatters(kernel: Kernel, graph: nx.DiGraph, table: LaneTable, index_fills: dict[str, tuple[int, int]],
              loops: dict[str, Loop], reported: set[int]) -> Iterator[tuple[Access, Access]]:
    """Plain stores of a value that differs between threads at an index read from the same array
    (`label[big] = small` with `big` and `small` two labels just read), which
    the kernel also reads in the same epoch: two threads that load the same index store different
    values and one is lost, and a thread reading the element sees either.  This is how a hook of
    union-find or label propagation reads when its atomicMin or atomicCAS was replaced.  An index
    from other data (a neighbour list, a permutation, a segment's offset) is not judged: whether two
    threads meet there is the data's business (tree children have one parent, segments are
    disjoint).  A scatter into an array nothing reads other than
    through the same index (`out[pos[i]] = x[i]`, a permutation or a compaction; `v = vel[perm[i]];
    ...; vel[perm[i]] = v`) is not one (_elsewhere), nor a store of one value every writer shares
    (`next[dst] = 1`, `level[dst] = iter + 1`), nor a scatter through an array the host fills with a
    permutation (indices.py)."""
    dependence, accesses = table.dependence, table.accesses
    for group in epochs(kernel, "global", GRID):
        for member_ in group:
            w = member_.access
            if w.kind != "store" or w.id in reported or w.id not in graph or w.value is None or \
                    w.array in kernel.spun_on or not loads_in(w.offset) or dependence.level(w.value) == 0 or \
                    str(w.offset) == str(op("*", w.value, Const(w.size))) or \
                    _written_back(w, accesses) or table.guessed & free_symbols(w.offset):
                continue
            if w.array not in {accesses[ld.access_id].array for ld in loads_in(w.offset) if ld.access_id in accesses} \
                    or _indexed_by(w.offset, "tid.", loops):
                # the index is not read from the array itself (`label[big]` with big a label), or a thread
                # index enters it beside the data (`nlist[beg + popc(...)]`: a place in the thread's own segment)
                continue
            read = next((m.access for m in group if m.access.kind == "load" and m.access.array == w.array and
                         _elsewhere(m.access, w, accesses, loops)), None)
            if read is None:
                continue
            context = graph.nodes[w.id]["context"]
            batch = table.sampler.batch(context)
            if _permuted(w, accesses, index_fills, batch):
                continue
            # an owner test (`parent[child] == node`: a tree child has one parent) or one thread's ticket
            if any(few_lanes(item[0].condition, item[1], any_equality=True) or
                   _single_passer(item[0].condition, batch, dependence) for item in context
                   if not isinstance(item, Loop)):
                continue
            reported.add(w.id)
            yield w, read


def _iterations(graph: nx.DiGraph, access: Access, orders: frozenset[str], batch) -> list[np.ndarray]:
    """Per lane, the iteration of each enclosing loop whose barriers of `orders` separate its iterations."""
    return [np.broadcast_to(batch.env.get(loop.iteration, 0.0), batch.active.shape)
            for loop in _separating_loops(graph, access, orders)]


def _meet(key: list[np.ndarray], who: np.ndarray, active: np.ndarray) -> bool:
    """Do two different `who` (threads, warps) share one value of `key` among the active lanes?"""
    rows = distinct_rows(np.stack([*(k[active] for k in key), who[active]], axis=1))
    return bool((rows[1:, :-1] == rows[:-1, :-1]).all(axis=1).any())  # sorted: one key's rows are adjacent


def _from_data(expr: Expr, carried: dict[str, tuple[Expr, ...]], seen: frozenset[str] = frozenset()) -> bool:
    """Is a value the lowering lost computed from loaded data (a root found by following `parent[a]`
    in a loop: `a after a loop`), following what it and the loop-carried values in it come from?
    Tests do not count, nor data that only chooses between values (`k += inc` when a child is
    ready: `posMassd[k].w >= 0 ? k + inc : k`): a value stepped without data is no index read from
    memory."""
    if isinstance(expr, Load):
        return True
    if isinstance(expr, Opaque):
        return any(_from_data(part, carried, seen) for part in expr.follows)
    if isinstance(expr, Sym):
        return expr.name in carried and expr.name not in seen and \
            any(_from_data(part, carried, seen | {expr.name}) for part in carried[expr.name])
    if not isinstance(expr, Op) or expr.name in _TESTS or \
            not (loads_in(expr) or has_opaque(expr) or free_symbols(expr) & carried.keys()):
        return False
    return any(_from_data(a, carried, seen) for a in (expr.args[1:] if expr.name == "?:" else expr.args))


_TESTS = ("<", "<=", ">", ">=", "==", "!=", "&&", "||", "!")


def _without_data_values(expr: Expr, carried: dict[str, tuple[Expr, ...]]) -> Expr:
    """`expr` with the lost values computed from data (_from_data) set to 0, as loaded indices are:
    lanes that reach the same root meet."""
    if isinstance(expr, Opaque):
        return Const(0.0) if _from_data(expr, carried) else expr
    if isinstance(expr, Op) and has_opaque(expr):
        return op(expr.name, *(_without_data_values(a, carried) for a in expr.args), is_int=expr.is_int)
    return expr


def _shared_words(w: Access, batch, table: LaneTable, loops: dict[str, Loop]) -> tuple[np.ndarray, np.ndarray] | None:
    """(address, active lanes) of a read-modify-write whose thread indices may still leave lanes on
    one word (`h[warp][bin] += 1`: every lane of a warp on its warp's row; `a[tid / 2] += v`), with
    loaded data one value for every lane: lanes that load the same index meet.  None when the
    address separates every lane or cannot be evaluated (a thread index it holds decides nothing).
    Lanes along an axis of `table.copies` only repeat index 0's work and are left out."""
    active = batch.active & _originals(batch, table.copies)
    if not _indexed_by(w.offset, "tid.", loops):
        return np.zeros(active.shape), active
    loaded = loads_in(w.offset)
    offset = _with_loads(w.offset, {ld.access_id: Const(0.0) for ld in loaded}) if loaded else w.offset
    address = evaluate_on(_without_data_values(offset, table.carried), batch)
    address = np.broadcast_to(address, active.shape)
    words = address[active]
    if not np.isfinite(words).all():
        return None
    block, in_block = _linear_ids(batch)
    threads = (block * 1024 + in_block)[active]
    order = np.argsort(words, kind="stable")
    words, threads = words[order], threads[order]
    if not ((words[1:] == words[:-1]) & (threads[1:] != threads[:-1])).any():
        return None  # no two threads on one word in any iteration: nothing to order
    return address, active


def _lost(w: Access, table: LaneTable, loops: dict[str, Loop]) -> str:
    """How the updates of a read-modify-write at `w` are lost: every thread on one word, or threads
    whose indices, loaded per thread (`c[idx[t]] += v`), repeat."""
    indexed = [table.accesses[ld.access_id] for ld in loads_in(w.offset) if ld.access_id in table.accesses]
    arrays = list(dict.fromkeys(f"`{a.array}`" for a in indexed if _indexed_by(a.offset, "tid.", loops)))
    if not arrays and _indexed_by(w.offset, "tid.", loops):
        return f"without atomics by several threads whose indices give one address (`{w.text}`): updates are lost"
    if not arrays:
        return "by several threads without atomics (no thread index in the address): updates are lost"
    return (f"without atomics, at an index each thread loads from {' and '.join(arrays)}: updates are lost "
            "wherever two threads load the same index")


MAX_DEFERRED = 256  # pairs on made-up arguments judged at several values, per kernel
# values a made-up argument in an address is judged at (0 leaves `A[i + offset]` on its own element)
TRIED_VALUES = (1.0, 2.0, 3.0, 17.0, 33.0)


def _tried(name: str, ranges: dict, kernel: Kernel) -> tuple[float, ...]:
    """The values of TRIED_VALUES the host's range for the argument allows, else the range's ends;
    without those at which the kernel returns at once (`if (k < 1 || k > 8) return;`)."""
    lo, hi = ranges.get(name, (-math.inf, math.inf))
    inside = tuple(v for v in TRIED_VALUES if lo <= v <= hi) or \
        tuple(dict.fromkeys(v for v in (lo, hi) if math.isfinite(v) and v != 0))
    exits = [s.condition for s in kernel.body if isinstance(s, Branch) and s.returns and
             free_symbols(s.condition) == {f"arg:{name}"}]
    return tuple(v for v in inside if not any(evaluate(c, {f"arg:{name}": v}) == 1 for c in exits))


def _one_element_apart_per_unit(w: Access, other: Access, names: frozenset[str]) -> bool:
    """Does each unit of the argument move the two accesses one element further apart (`A[i]` and
    `A[i + offset]`)?  A made-up size that carves an array into parts (`x = s + 4 * (n + 1)` beside
    `b = s + (n + 1)`) moves them by several: it is a length, and a small one only makes the parts
    overlap."""
    used = sorted((free_symbols(w.offset) | free_symbols(other.offset)) - names)
    steps = set()
    for seed in (3.0, 11.0):
        env = {name: seed + 2.0 * k for k, name in enumerate(used)}
        apart = [float(evaluate(w.offset, {**env, **{n: value for n in names}}) -
                       evaluate(other.offset, {**env, **{n: value for n in names}})) for value in (0.0, 1.0)]
        steps.add(apart[1] - apart[0])
    return len(steps) == 1 and abs(steps.pop()) == min(w.size, other.size)


def _shifts_only(access: Access, names: frozenset[str]) -> bool:
    """Do the arguments `names` only shift the access's address by the same amount for every
    thread (`A[i + offset]`), rather than scale a thread's index (`y * pitch + x`: a pitch below the
    row's width is a wrong input, not a race)?  Judged by evaluating the address at two points of
    every other name it reads, with the arguments at 0 and at 1."""
    used = free_symbols(access.offset)
    if not used & names:
        return True
    if loads_in(access.offset) or has_opaque(access.offset):
        return False
    others = sorted(used - names)
    steps = set()
    for seed in (3.0, 11.0):
        env = {name: seed + 2.0 * k for k, name in enumerate(others)}
        low, high = (evaluate(access.offset, {**env, **{n: value for n in names}}) for value in (0.0, 1.0))
        step = float(high - low)
        if not math.isfinite(step):
            return False
        steps.add(step)
    return len(steps) == 1


def _at_values(kernel: Kernel, graph: nx.DiGraph, deferred: dict[_Kind, list], resample, ranges: dict,
               copies: tuple[str, ...], guessed: frozenset[str],
               reported: dict[str, set[int]]) -> Iterator[tuple[_Kind, Access, Access, str]]:
    """Pairs set aside because their addresses use a made-up argument (`A[i] = A[i + offset]` with
    nobody giving offset), judged again with the argument at each of a few values, small ones
    included, where one argument only shifts the addresses (_shifts_only) of an update's read and
    write (one statement): a race that shows at every one of them is reported, naming the values."""
    accesses = {s.id: s for s, _ in statements(kernel) if isinstance(s, Access)}
    wanted: dict[frozenset[str], set[tuple[int, int]]] = {}
    for pairs in deferred.values():
        for pair in pairs:
            names = frozenset(n for a in pair for n in free_symbols(accesses[a].offset) if n in guessed)
            # one argument, shifting an in-place update's read or its write, not both, against the other
            # (`A[i] = A[i + offset]`); two statements a made-up stride apart are fields of one array
            # (`NU[id]`, `NU[id + offset]`), and a size both addresses hold carves one into parts (`x[i] =
            # d[i]` with x = s + 4 * (n + 1), d = s + 3 * (n + 1)): a small one only makes them overlap
            if len(names) == 1 and accesses[pair[0]].line == accesses[pair[1]].line and \
                    sum(bool(free_symbols(accesses[a].offset) & names) for a in set(pair)) == 1 and \
                    all(_shifts_only(accesses[a], names) for a in pair) and \
                    _one_element_apart_per_unit(accesses[pair[0]], accesses[pair[1]], names):
                wanted.setdefault(names, set()).add(pair)
    if sum(len(pairs) for pairs in wanted.values()) > MAX_DEFERRED:
        return  # machine-generated code: thousands of pairs on made-up strides
    for names, pairs in wanted.items():
        values = sorted(set.intersection(*(set(_tried(n[4:], ranges, kernel)) for n in names)))
        if not values:
            continue
        racing: dict[tuple[_Kind, int, int], int] = {}
        for value in values:
            table = LaneTable(kernel, graph, resample({n[4:]: value for n in names}), copies, guessed - names)
            for kind, kind_pairs in deferred.items():
                mine = pairs & set(kind_pairs)
                if not mine:
                    continue
                seen: set[int] = set()
                for w, other in _found(kind, epochs(kernel, kind.space, kind.orders), table, graph, seen, only=mine):
                    racing[(kind, w.id, other.id)] = racing.get((kind, w.id, other.id), 0) + 1
        spelled = ", ".join(f"{v:g}" for v in values)
        arguments = " and ".join(f"`{n[4:]}`" for n in sorted(names))
        for (kind, w_id, other_id), count in racing.items():
            if count == len(values) and w_id not in reported[kind.space]:
                reported[kind.space].add(w_id)
                yield kind, accesses[w_id], accesses[other_id], \
                    f" (at every value of {arguments} tried: {spelled}; no launch gives it)"


def races(kernel: Kernel, graph: nx.DiGraph, sampler: Sampler, copies: tuple[str, ...] = (),
          guessed: frozenset[str] = frozenset(),
          index_fills: dict[str, tuple[int, int]] | None = None, resample=None,
          ranges: dict | None = None) -> Iterator[tuple[str, int, int, str]]:
    """(kind, line, column, message) for every write that races.  Lanes whose index along one of
    `copies` (``tid.y``, ``bid.z``, ...) is not 0 are left out: under a guessed launch, threads or
    blocks along an axis the kernel never reads only repeat index 0's work.  Pairs whose addresses
    use an argument in `guessed` (a made-up value: a pitch, a stride) are left out.  `index_fills`
    are the index arrays the host fills with a permutation (Launch.index_fills).  `resample(values)`
    gives the sampler with made-up arguments at those values, to judge the pairs they left out at
    several values (_at_values; `ranges`: what the host allows)."""
    table = LaneTable(kernel, graph, sampler, copies, guessed)
    deferred: dict[_Kind, list] = {kind: [] for kind in (SHARED, WARP, GLOBAL_IN_BLOCK, GLOBAL_ACROSS_BLOCKS)}
    shared: set[int] = set()
    for w, other in _found(SHARED, epochs(kernel, "shared", SHARED.orders), table, graph, shared, deferred[SHARED]):
        yield SHARED.name, w.line, w.column, _shared_message(SHARED, w, other)
    for w, other in _found(WARP, epochs(kernel, "shared", WARP.orders), table, graph, shared, deferred[WARP]):
        yield WARP.name, w.line, w.column, _shared_message(WARP, w, other)
    global_: set[int] = set()
    loops = {s.counter: s for s, _ in statements(kernel) if isinstance(s, Loop)}
    for w, read in _data_reads(kernel, graph, table, loops, shared):
        arrays = " and ".join(dict.fromkeys(f"`{table.accesses[ld.access_id].array}`" for ld in loads_in(read.offset)
                                            if ld.access_id in table.accesses)) or "data"
        yield SHARED.name, w.line, w.column, (
            f"shared `{w.array}` written here by several warps and read at line {read.line} at an index loaded "
            f"from {arrays}, with no barrier between: wherever the index names another warp's element, the read "
            "races with its write")
    for w, scope in _unordered_updates(kernel, graph, table, loops, index_fills or {}):
        kind = "global-race" if w.space == "global" else WARP.name if scope == "warp" else SHARED.name
        (shared if w.space == "shared" else global_).add(w.id)
        yield kind, w.line, w.column, f"{w.space} `{w.array}` read and written back here " + _lost(w, table, loops)
    for w, read in _scatters(kernel, graph, table, index_fills or {}, loops, global_):
        arrays = " and ".join(dict.fromkeys(f"`{table.accesses[ld.access_id].array}`" for ld in loads_in(w.offset)
                                            if ld.access_id in table.accesses)) or "data"
        yield "global-race", w.line, w.column, (
            f"global `{w.array}` written here at an index loaded from {arrays}, with a value that differs between "
            f"threads, and read at line {read.line}, without atomics: wherever two threads load the same index "
            "one store is lost, and readers see either value")
    for kind in (GLOBAL_IN_BLOCK, GLOBAL_ACROSS_BLOCKS):
        for w, other in _found(kind, epochs(kernel, "global", kind.orders), table, graph, global_, deferred[kind]):
            yield kind.name, w.line, w.column, _global_message(kind, w, other)
    if resample is not None and any(deferred.values()):
        reported = {"shared": shared, "global": global_}
        for kind, w, other, note in _at_values(kernel, graph, {k: v for k, v in deferred.items() if v}, resample,
                                               ranges or {}, copies, guessed, reported):
            message = _shared_message(kind, w, other) if kind.space == "shared" else _global_message(kind, w, other)
            yield kind.name, w.line, w.column, message + note


def _data_reads(kernel: Kernel, graph: nx.DiGraph, table: LaneTable, loops: dict[str, Loop],
                reported: set[int]) -> Iterator[tuple[Access, Access]]:
    """A plain store to a shared array by several warps, and a plain load of it in the same barrier
    interval at an index loaded from data alone (`s_contrib[u - base]` with `u = nlist[i]`): the
    sampled lanes cannot place the load, but whatever element the data name, one written by another
    warp races with the read wherever it is one of those.  A thread index beside the data (`s[warp *
    32 + k]`) may keep the read in the reader's own part, and writers chosen by a test of the data the
    index comes from (`if (threadIdx.x != sbest) fsm[i] = ...` beside `next[sbest * 8 + i]`) may
    leave that part alone: neither is judged."""
    for group in epochs(kernel, "shared", SHARED.orders):
        reads = [m for m in group if m.access.kind == "load" and loads_in(m.access.offset) and
                 not _indexed_by(m.access.offset, "tid.", loops) and m.access.array not in kernel.spun_on]
        for mr in reads:
            for mw in group:
                w = mw.access
                if w.kind != "store" or w.array != mr.access.array or w.id in reported or \
                        _alignment(mw, mr) is None or table.guessed & free_symbols(w.offset) or w.id not in graph:
                    continue
                named = _index_words(mr.access.offset, table.accesses, loops)
                if any(_index_words(item[0].condition, table.accesses, loops) & named
                       for item in graph.nodes[w.id]["context"] if not isinstance(item, Loop)):
                    continue  # the writers are picked by the data the read's index comes from (`t != sbest`)
                lanes = table.get(w, (), True)
                if lanes is None or not lanes.block.size:
                    continue
                first = lanes.block == lanes.block[0]
                if np.unique(lanes.warp[first]).size >= 2:
                    reported.add(w.id)
                    yield w, mr.access


def _shared_message(kind: _Kind, w: Access, other: Access) -> str:
    how = "updated atomically" if w.kind == "atomic" else "written"
    if kind is SHARED:
        what = "written by several warps" if other is w else f"{other.kind} at line {other.line} by another warp"
        return f"shared `{w.array}` {how} here and {what}, with no barrier between"
    what = "written by several lanes of one warp" if other is w else \
        f"{other.kind} at line {other.line} by another lane of the same warp"
    return f"shared `{w.array}` {how} here and {what}, with no __syncwarp() between"


def _global_message(kind: _Kind, w: Access, other: Access) -> str:
    whom = "another thread of the block" if kind is GLOBAL_IN_BLOCK else "a thread of another block"
    what = f"also written by {whom}" if other is w else f"{other.kind} at line {other.line} by {whom}"
    return f"global `{w.array}` written here and {what}, without atomics"
