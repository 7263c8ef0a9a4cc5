"""Synchronisation hazards of one kernel under one launch: the report's ``sync`` list.

Barriers some threads never reach, warp collectives whose full mask names lanes that are not
there, barriers that order nothing, atomics every lane aims at one address, and data races
(``races.py``).  Thread-divergence comes from the branch uniformity analysis: a condition is
*thread*-level when lanes of one warp may disagree on it for some argument values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import networkx as nx
import numpy as np

from . import graph as access_graph
from .divergence import LEVELS, BranchUniformity, Dependence, divergence_sampler
from .divergence import uniformity as branch_uniformity
from .ir import Access, Barrier, Branch, Collective, Compute, Kernel, Loop, OpaqueMemory, statements, walk
from .launch import DEFAULT_ARGUMENT, MAX_BLOCK_THREADS, Launch, block_width_hint, dimensionality
from .races import few_lanes as _few_lanes
from .races import races
from .races import unseen as _unseen
from .sampling import Batch, Sampler, evaluate_on
from .symbolic import Const, Expr, Op, Sym, free_symbols, has_opaque, loads_in, op, substitute

RACES = ("shared-race", "global-race", "implicit-warp-sync")
DIVERGENT_SYNCHRONISATION = ("barrier-divergence", "divergent-full-mask")
KINDS = (*DIVERGENT_SYNCHRONISATION, *RACES, "redundant-barrier", "atomic-contention")
# Blocks of two warps a race under a guessed block must also show in (per dimensionality of the
# kernel): a race only the default's extra threads or wider rows make is a guess, not a finding.
SMALL_BLOCKS = {1: ((64, 1, 1),), 2: ((8, 8, 1), (64, 1, 1)), 3: ((4, 4, 4), (64, 1, 1))}
BLOCK_CHECKED = ("shared-race", "global-race")
# Divergent synchronisation on a made-up scalar argument must also show with the argument at least
# this large: a split that shows only while the guess is below a block's width (`if (tid >= C)
# return;` with C a row length) is no finding.
LARGE_ARGUMENT = 100_003
_BLOCK_LOCAL = ("tid", "bdim")  # symbols that are the same in every block


@dataclass(frozen=True)
class Hazard:
    kind: str  # one of KINDS (the lint rule of the same name reports it)
    line: int
    column: int
    message: str

    def to_json(self) -> dict:
        return {"kind": self.kind, "line": self.line, "column": self.column, "message": self.message}


def _divergent_guard(context: tuple, uniformity: dict[int, BranchUniformity],
                     levels: tuple[str, ...], exited: Callable[[object], bool] | None = None) -> Branch | Loop | None:
    """The innermost enclosing branch or loop whose uniformity is one of `levels` (``thread``:
    lanes of a warp may disagree; ``warp``: warps of a block may), judged on thread dependence the
    analysis saw (an unknown value is not evidence of divergence).  None on a side no thread takes
    (`if constexpr (N == 4)` with N = 8): code that never runs diverges nowhere.  `exited(item)`:
    the lanes the item leaves out have left the kernel, so they split nothing (_exits_kernel)."""
    if any(_dead_side(item) for item in context):
        return None
    for item in reversed(context):
        stmt = item if isinstance(item, Loop) else item[0]
        result = uniformity.get(stmt.id)
        if result is not None and result.uniformity in levels and result.evident and \
                not (exited is not None and exited(item)):
            return stmt
    return None


def _tails(kernel: Kernel) -> set[int]:
    """Statements after which the kernel runs nothing more: the last statement of its body, and of
    either side of a branch that is one (not of a loop body: the next iteration follows)."""
    found: set[int] = set()

    def visit(stmts: list) -> None:
        rest = [s for s in stmts if not isinstance(s, Compute)]
        if rest:
            found.add(rest[-1].id)
            if isinstance(rest[-1], Branch):
                visit(rest[-1].then)
                visit(rest[-1].orelse)

    visit(kernel.body)
    return found


def _exits_kernel(kernel: Kernel) -> Callable[[object], bool]:
    """Does a context item leave out only lanes that have left the kernel?  The lanes a kernel
    `return` took (the rest of the kernel sits on the far side of `if (i >= n) return;`), those a
    loop the kernel ends with let go (a grid-stride loop: lanes that leave it exit), and those a
    branch the kernel ends with skips when its other side does nothing.  The CUDA model defines a
    warp collective over the lanes of its mask that have not exited, so a full mask is right there."""
    tails = _tails(kernel)

    def exited(item) -> bool:
        if isinstance(item, Loop):
            return item.id in tails
        branch, side = item
        if branch.returns and not side:
            return True
        other = branch.orelse if side else branch.then
        return branch.id in tails and not [s for s in other if not isinstance(s, Compute)]

    return exited


def _dead_side(item) -> bool:
    if isinstance(item, Loop):
        return False
    branch, side = item
    return isinstance(branch.condition, Const) and bool(branch.condition.value) != side


def _where(guard: Branch | Loop, uniformity: dict[int, BranchUniformity]) -> str:
    result = uniformity[guard.id]
    who = "threads" if result.uniformity == "thread" or result.data_dependent else "warps"
    if isinstance(guard, Loop):
        return f"in a loop whose trip count differs between {who} (`{guard.text}`, line {guard.line})"
    how = "after an early exit on" if guard.exits else "under"
    return f"{how} `{guard.text}` (line {guard.line}), which differs between {who}"


def barrier_divergence(kernel: Kernel, uniformity: dict[int, BranchUniformity]) -> Iterator[Hazard]:
    for stmt, context in statements(kernel):
        if isinstance(stmt, Barrier) and stmt.scope in ("block", "grid") and not stmt.counted:
            guard = _divergent_guard(context, uniformity, ("thread", "warp"))
            if guard is not None:
                yield Hazard("barrier-divergence", stmt.line, stmt.column,
                             f"`{stmt.name}` {_where(guard, uniformity)}")


def divergent_full_mask(kernel: Kernel, uniformity: dict[int, BranchUniformity],
                        sampler: Callable[[dict[str, float]], Sampler] | None = None,
                        free: frozenset[str] = frozenset()) -> Iterator[Hazard]:
    """A full-mask `*_sync` collective or `__syncwarp()` where some lanes may be absent: undefined
    behaviour (a hang or garbage) on Volta and later.  Lanes that have left the kernel do not count
    (the CUDA model asks the mask's non-exited lanes to arrive): a grid-stride loop or a branch that
    ends the kernel, or a kernel `return`, leaves out only such lanes.  A shuffle there still reads
    garbage where a lane that is there reads one that has left (`v += __shfl_down_sync(~0, v, 16)`
    after `if (i >= n) return;`): `sampler(values)` gives the lanes to find them, with the arguments
    of `free` the tests read also set to small values (SMALL_VALUES), which split warps where the
    value the launch has does not."""
    exited = _exits_kernel(kernel)
    for stmt, context in statements(kernel):
        full = isinstance(stmt, Collective | Barrier) and stmt.full_mask and \
            (isinstance(stmt, Collective) or stmt.scope == "warp")
        if not full or _divergent_guard(context, uniformity, ("thread",)) is None:
            continue
        guard = _divergent_guard(context, uniformity, ("thread",), exited)
        what = "with the full mask 0xffffffff" if isinstance(stmt, Collective) or stmt.name == "__syncwarp" \
            else "of a 32-thread tile (every lane of the warp must arrive)"
        if guard is not None:
            yield Hazard("divergent-full-mask", stmt.line, stmt.column,
                         f"`{stmt.name}` {what} {_where(guard, uniformity)}")
        elif isinstance(stmt, Collective) and stmt.lane is not None and sampler is not None:
            tested = sorted({name for item in context for part in
                             ((item.condition,) if isinstance(item, Loop) else (item[0].condition,))
                             for name in free_symbols(part) if name in free})
            readers = ""
            leaving = [(item.condition if isinstance(item, Loop) else item[0].condition) for item in context
                       if exited(item)]
            for values in ({}, *({name: value for name in tested} for value in SMALL_VALUES if tested)):
                batch = sampler(values).batch(context)
                undecided = any(np.isnan(evaluate_on(condition, batch)[batch.active]).any() for condition in leaving)
                readers = _reads_exited(stmt, batch, _halving(stmt, context), undecided)
                if readers:
                    break
            if readers:
                guard = _divergent_guard(context, uniformity, ("thread",))
                yield Hazard("divergent-full-mask", stmt.line, stmt.column,
                             f"`{stmt.name}` {what} {_where(guard, uniformity)}: the lanes left out exit, "
                             f"but {readers} a value from one of them, which is undefined")


def _source_lanes(collective: Collective, batch: Batch) -> np.ndarray:
    """Per lane of the batch, the lane a shuffle reads (its own where the shuffle leaves it alone)."""
    lane = np.broadcast_to(np.arange(32, dtype=float), batch.active.shape)
    operand = evaluate_on(collective.lane, batch)
    width = evaluate_on(collective.width, batch) if collective.width is not None else np.full(batch.active.shape, 32.0)
    width = np.where(np.isfinite(width) & (width >= 1), width, 32.0)
    base = np.floor(lane / width) * width
    within = lane - base
    if collective.name == "__shfl_up_sync":
        return np.where(within >= operand, lane - operand, lane)
    if collective.name == "__shfl_down_sync":
        return np.where(within + operand < width, lane + operand, lane)
    if collective.name == "__shfl_xor_sync":
        with np.errstate(invalid="ignore"):
            source = np.bitwise_xor(lane.astype(np.int64), np.nan_to_num(operand, nan=0).astype(np.int64))
        source = np.where(np.isfinite(operand), source, np.nan)
        return np.where(source < base + width, source, lane)
    return base + np.mod(operand, width)


SMALL_VALUES = (1.0, 2.0, 3.0, 5.0, 17.0)  # argument values a shuffle's lanes are also judged at


def _halving(collective: Collective, context: tuple) -> bool:
    """Is the shuffle's offset the counter of an enclosing loop that halves it (`for (o = 16; o > 0;
    o >>= 1) v += __shfl_down_sync(~0, v, o)`): a tree reduction, whose result is its first lane's?"""
    names = free_symbols(collective.lane) if collective.lane is not None else set()
    for loop in (c for c in context if isinstance(c, Loop)):
        if loop.counter in names and isinstance(loop.update, Op) and len(loop.update.args) == 2 and \
                loop.update.args[0] == Sym(loop.counter) and \
                (loop.update.name, loop.update.args[1]) in (("/", Const(2.0)), (">>", Const(1.0))):
            return True
    return False


def _reads_exited(collective: Collective, batch: Batch, tree: bool, undecided: bool) -> str:
    """Lanes that take part in a shuffle, whose result is used, and that read a lane which does not
    take part (spelled for a message), or '' when none does.  A tree reduction down a segment
    (`tree`: halving offsets) leaves its result in the segment's first lane (the last one for
    `__shfl_up_sync`), so only that lane's reads count there (jacobi's `if (threadIdx.y == 0)`
    reduction over 16 lanes by offsets of 8 and less reads nothing that left); every lane's read
    counts otherwise.  Where which lanes left rests on a value the analysis cannot see (`undecided`:
    `p.width`, data), any read of another lane may be one of a lane that left."""
    source = _source_lanes(collective, batch)
    lane = np.broadcast_to(np.arange(32, dtype=float), batch.active.shape)
    width = evaluate_on(collective.width, batch) if collective.width is not None else np.full(lane.shape, 32.0)
    width = np.where(np.isfinite(width) & (width >= 1), width, 32.0)
    used = np.ones(lane.shape, dtype=bool)
    if tree and collective.name == "__shfl_down_sync":
        used = np.mod(lane, width) == 0
    elif tree and collective.name == "__shfl_up_sync":
        used = np.mod(lane, width) == width - 1
    active = batch.active
    known = active & used & np.isfinite(source) & (source >= 0) & (source < 32)
    rows, lanes = np.nonzero(known)
    if not rows.size:
        return ""
    sources = source[rows, lanes].astype(int)
    reads_absent = (sources != lanes) if undecided else ~active[rows, sources]
    if not reads_absent.any():
        return ""
    row = rows[reads_absent][0]
    bad = sorted(set(lanes[reads_absent & (rows == row)].tolist()))
    return f"lane {bad[0]} of a warp reads" if len(bad) == 1 else f"lanes {bad[0]}..{bad[-1]} of a warp read"


_ORDERED_SPACES = ("shared", "global", "unknown")


def _orders_memory(stmts: list) -> bool:
    return any(isinstance(s, Access | OpaqueMemory) and s.space in _ORDERED_SPACES for s, _ in walk(stmts))


def _redundant_in(body: list, in_loop: bool, ends_kernel: bool,
                  entered: bool) -> Iterator[tuple[Barrier, Hazard | None]]:
    """Each block barrier of one statement list, with a hazard when no shared/global access
    happened since the previous barrier of the list (wrapping round for loop bodies), or none
    follows it when the list ends the kernel.  `entered`: accesses outside a loop body reach its
    first barrier with no barrier between (writes before the loop, reads of the loop test)."""
    barriers = [i for i, s in enumerate(body) if isinstance(s, Barrier) and s.scope == "block"]
    for n, i in enumerate(barriers):
        previous = barriers[n - 1] if n else None
        before = body[previous + 1:i] if previous is not None else body[:i]
        if previous is None and in_loop:
            before = body[barriers[-1] + 1:] + before
        barrier, hazard = body[i], None
        if not _orders_memory(before) and (previous is not None or (in_loop and not entered)):
            hazard = Hazard("redundant-barrier", barrier.line, barrier.column,
                            f"`{barrier.name}` orders no shared or global access since the previous barrier")
        elif ends_kernel and not _orders_memory(body[i + 1:]):
            hazard = Hazard("redundant-barrier", barrier.line, barrier.column,
                            f"`{barrier.name}` ends the kernel: no access after it needs ordering")
        yield barrier, hazard


def _statement_lists(body: list, in_loop: bool, ends_kernel: bool, entered: bool,
                     loop_reads: Callable[[Loop], bool]) -> Iterator[tuple[list, bool, bool, bool]]:
    """Every statement list with the arguments of `_redundant_in`.  A loop is entered with
    accesses pending when its test reads memory (that read sits between the tail of one iteration
    and the head of the next) or when the list it sits in accessed memory since its last barrier
    (in a loop body, wrapping round the tail of that body's previous iteration)."""
    yield body, in_loop, ends_kernel, entered
    barriers = [i for i, s in enumerate(body) if isinstance(s, Barrier) and s.scope == "block"]
    pending = entered or (in_loop and _orders_memory(body[barriers[-1] + 1:] if barriers else body))
    for stmt in body:
        if isinstance(stmt, Barrier) and stmt.scope == "block":
            pending = False
            continue
        if isinstance(stmt, Loop):
            yield from _statement_lists(stmt.body, True, False, pending or loop_reads(stmt), loop_reads)
        elif isinstance(stmt, Branch):
            for side in (stmt.then, stmt.orelse):
                yield from _statement_lists(side, False, False, pending, loop_reads)
        pending = pending or _orders_memory([stmt])


def redundant_barriers(kernel: Kernel) -> Iterator[Hazard]:
    """Barriers that order nothing wherever their source line runs (a macro or an unrolled loop
    puts one line at several places) and whose removal changes nothing else (Barrier.removable)."""
    spaces = {s.id: s.space for s, _ in statements(kernel) if isinstance(s, Access)}

    def loop_reads(loop: Loop) -> bool:
        return any(spaces.get(load.access_id) in _ORDERED_SPACES
                   for part in (loop.condition, loop.update) for load in loads_in(part))

    found: dict[tuple[int, int], Hazard | None] = {}
    for body, in_loop, ends_kernel, entered in _statement_lists(kernel.body, False, True, False, loop_reads):
        for barrier, hazard in _redundant_in(body, in_loop, ends_kernel, entered):
            where = (barrier.line, barrier.column)
            keep = hazard is None or not barrier.removable or barrier.counted
            found[where] = None if keep or (where in found and found[where] is None) else hazard
    yield from (h for h in found.values() if h is not None)


def _may_split_warps(branch: Branch, uniformity: dict[int, BranchUniformity]) -> bool:
    """May lanes of one warp disagree on the branch?  Also when that rests on values the lowering
    lost or calls it does not model (`tile.thread_rank()`), which uniformity takes as no evidence:
    silence is the safe side for a count of contending lanes."""
    result = uniformity.get(branch.id)
    return result is not None and (result.uniformity == "thread" or not result.evident
                                   or has_opaque(branch.condition))


def atomic_contention(broadcast_lanes: dict[int, float], kernel: Kernel,
                      uniformity: dict[int, BranchUniformity], aggregated: dict) -> Iterator[Hazard]:
    """Atomics whose lanes all hit one address, with more than one lane per warp on average (one
    lane per warp, after a warp reduction, is the fix, not the smell).  Forms the compiler already
    applies once per warp on the target architecture (`aggregated`: Arch.aggregated_atomics, read
    from SASS) are that fix.  Lanes behind a condition on unseen values are counted as if all took
    it: the message names the condition, and an equality that lanes of a warp may disagree on (few
    take it) is no evidence at all."""
    for access, context in statements(kernel):
        if not (isinstance(access, Access) and access.kind == "atomic" and access.space == "global" and
                broadcast_lanes.get(access.id, 0.0) >= 2):
            continue
        if access.operation in aggregated["result_read" if access.returns else "result_unused"]:
            continue
        guards = [(branch, side) for branch, side in (c for c in context if not isinstance(c, Loop))
                  if _unseen(branch.condition)]
        if any(_few_lanes(branch.condition, side) and _may_split_warps(branch, uniformity) for branch, side in guards):
            continue
        message = f"`{access.text}`: all lanes of a warp update one address of `{access.array}`"
        if guards:
            branch, _ = guards[-1]
            message = (f"`{access.text}`: every lane of a warp that reaches it updates one address of "
                       f"`{access.array}` (which lanes reach it depends on `{branch.text}`, line {branch.line})")
        yield Hazard("atomic-contention", access.line, access.column, message)


def _copied_axes(kernel: Kernel, launch: Launch) -> tuple[str, ...]:
    """Thread and block indices along axes the kernel never reads (no threadIdx/blockDim or
    blockIdx/gridDim component), unless the user gave the launch: threads or blocks along them
    would all do the same work, so races between them would only restate a guessed launch."""
    if launch.source in ("cli", "annotation"):
        return ()
    return tuple(f"{index}.{a}" for index, size in (("tid", "bdim"), ("bid", "gdim")) for a in "xyz"
                 if not {f"{index}.{a}", f"{size}.{a}", f"{index}.linear"} & kernel.uses)


def _guessed_arguments(launch: Launch) -> frozenset[str]:
    """Scalar arguments whose values neither the user nor the host code gave."""
    return frozenset(f"arg:{name}" for name, source in launch.arg_sources.items() if source == "default")


def _loops_run_again(kernel: Kernel, launch: Launch) -> Launch:
    """The launch with every made-up scalar argument (a default nobody gave) that bounds a loop
    holding a block barrier raised to a multiple of the default past three times the grid's
    threads, within the range the host allows: a persistent loop over `nodes` vertices (`for (v =
    blockIdx.x; v < nodes; v += gridDim.x)`) then runs several iterations in every block, so what
    one iteration's tail does to the next one's head is seen (a multiple of the default keeps the
    tests a power of two divides, `n % blockDim.x == 0`, as they were).  Addresses built from such
    arguments are still left out of races (`_guessed_arguments`)."""
    bounding = {name[4:] for loop, _ in statements(kernel) if isinstance(loop, Loop) and
                any(isinstance(s, Barrier) and s.scope in ("block", "grid") for s, _ in walk(loop.body))
                for name in free_symbols(loop.condition) if name.startswith("arg:")}
    threads = 3 * launch.blocks * launch.threads_per_block
    raised = {}
    for name in bounding:
        if launch.arg_sources.get(name) == "default":
            lo, hi = launch.ranges.get(name, (-math.inf, math.inf))
            value = max(launch.args[name], -(-threads // DEFAULT_ARGUMENT) * DEFAULT_ARGUMENT, lo)
            raised[name] = float(min(value, hi))
    return replace(launch, args={**launch.args, **raised}) if raised else launch


def _race_sampler(launch: Launch) -> Sampler:
    """Every warp of the first blocks and their neighbours; a loop on unseen values runs twice (its
    tail meets its head)."""
    return Sampler(launch, all_warps=True, neighbours=True, assumed_trips=2)


def _resampler(launch: Launch) -> Callable[[dict[str, float]], Sampler]:
    """Race samplers of the launch with some scalar arguments at other values (one per values)."""
    made: dict[tuple, Sampler] = {}

    def at(values: dict[str, float]) -> Sampler:
        key = tuple(sorted(values.items()))
        if key not in made:
            made[key] = _race_sampler(replace(launch, args={**launch.args, **values}))
        return made[key]

    return at


def _races(kernel: Kernel, graph: nx.DiGraph, launch: Launch) -> list[Hazard]:
    """Races under the launch, sampled with the first block's neighbour (what block 0 writes past
    its range, block 1 touches); under a guessed block, `shared-race` and `global-race` only where
    every block of SMALL_BLOCKS races at the same line too (a kernel written for 8-wide blocks
    analysed as 16x16, a word only thread 256 would reach, a y extent the launch may not have)."""
    launch = _loops_run_again(kernel, launch)
    found = [Hazard(*race) for race in races(kernel, graph, _race_sampler(launch),
                                             _copied_axes(kernel, launch), _guessed_arguments(launch),
                                             launch.index_fills, _resampler(launch), launch.ranges)]
    if "block" not in launch.guessed or not any(h.kind in BLOCK_CHECKED for h in found):
        return found
    if dimensionality(kernel) == 1 and block_width_hint(kernel) == launch.block[0]:
        return found  # a width the kernel's own indexing states (`blockIdx.x * 512 + threadIdx.x`), not a guess
    for block in SMALL_BLOCKS[dimensionality(kernel)]:
        small = _loops_run_again(kernel, replace(launch, block=block))
        again = {(kind, line, column) for kind, line, column, _ in races(
            kernel, graph, _race_sampler(small), _copied_axes(kernel, small),
            _guessed_arguments(small), small.index_fills, _resampler(small), small.ranges)}
        found = [h for h in found if h.kind not in BLOCK_CHECKED or (h.kind, h.line, h.column) in again]
    return found


def _made_up_arguments(launch: Launch) -> dict[str, float]:
    """Scalar arguments neither the user nor the host code gave (defaults and values inferred from
    a bounds check in the kernel: `tid < C` makes C the block size), with the value they are
    judged at: LARGE_ARGUMENT, or the least the launches allow when that is more (`len > 1024`
    around the launch); when the launches cap the argument below LARGE_ARGUMENT, the least value
    they allow, and none (any value, as for a given argument) when that has no floor either."""
    made_up = {}
    for name in (*(n[4:] for n in _guessed_arguments(launch)), *launch.bounded):
        lo, hi = launch.ranges.get(name, (-math.inf, math.inf))
        judged = max(lo, LARGE_ARGUMENT) if hi >= max(lo, LARGE_ARGUMENT) else lo
        if math.isfinite(judged):
            made_up[f"arg:{name}"] = float(judged)
    return made_up


def _fixed_arguments(launch: Launch) -> frozenset[str]:
    """Scalar arguments the host code fixes at the kernel's only launch, or the user gave, when grid
    and block are known too: the program as launched, not any input, decides which threads diverge
    on them."""
    given = {name for name, source in launch.arg_sources.items() if source == "cli"}
    return frozenset() if launch.guessed else frozenset(f"arg:{name}" for name in {*launch.fixed, *given})


def _fixed_under_a_guess(launch: Launch) -> dict[str, float]:
    """Arguments the host fixes at a launch whose grid or block is a guess, at their values: judged
    like made-up ones, in tests against thread indices alone (`if (tid >= C) return;` with the
    host's C = 50257 exits no thread of any block, whatever block the guess is)."""
    return {f"arg:{name}": launch.args[name] for name in launch.fixed} if launch.guessed else {}


def _multiple_arguments(launch: Launch) -> dict[str, Expr]:
    """Scalar arguments the host makes a multiple of a constant (`n = k * 1024`), each as that
    multiple of an unknown: `gid < n` then splits no block whose width divides the constant."""
    if "block" in launch.guessed:
        return {}
    return {f"arg:{name}": op("*", Sym(f"arg:{name}"), Const(float(multiple)), is_int=True)
            for name, multiple in launch.multiples.items()}


def _argument_cases(launch: Launch) -> list[dict[str, Expr]]:
    """The substitutions a branch on host multiples (_multiple_arguments) and on arguments the grid
    is sized from by a rounded-down division (`grid = num / 32`, Launch.quotients) is judged under,
    one per case: such an argument is gridDim * 32 plus a remainder below 32, taken at its least,
    its greatest and two values between (`min(num, blockIdx.x * 32 + 32)` then cuts no block,
    whatever the grid and the block: hexciton's final_gpu_kernel)."""
    multiples = _multiple_arguments(launch)
    if not launch.quotients:
        return [multiples]
    return [{**multiples, **{f"arg:{name}": op("+", op("*", Sym(f"gdim.{'xyz'[axis]}"), Const(float(c))),
                                               Const(float((0, 1, c // 2, c - 1)[case])))
                             for name, (axis, c) in launch.quotients.items()}}
            for case in range(4)]


def _worst(found: Iterator[BranchUniformity]) -> BranchUniformity:
    """The least uniform of a branch's judgements under several cases."""
    return max(found, key=lambda u: LEVELS.index(u.uniformity))


def _concretely(kernel: Kernel, graph: nx.DiGraph, launch: Launch,
                uniformity: dict[int, BranchUniformity]) -> dict[int, BranchUniformity]:
    """`uniformity` with branches on made-up, fixed or host-multiple arguments judged again with
    those arguments at one value rather than any: a fixed one at the host's value (`id > len` with
    len = 65536 and 255 blocks of 256 threads never holds), a made-up one at LARGE_ARGUMENT or as
    its launches allow (_made_up_arguments), but only in a test against thread indices alone
    (`if (tid >= C) return;` splits a block only while the guess is below the block's width;
    `blockIdx.x * blockDim.x + threadIdx.x < n` splits the block holding n whatever n is, so it
    keeps its judgement), and a host multiple as any multiple of its constant (`tid >= n` with
    n = k * 1024 and blocks of 256 threads splits none)."""
    cases = _argument_cases(launch)
    multiples = cases[0]  # the names every case substitutes
    judged_at = {name: value for name, value in {**_made_up_arguments(launch), **_fixed_under_a_guess(launch)}.items()
                 if name not in multiples}
    made_up, fixed = frozenset(judged_at), _fixed_arguments(launch)
    # a guessed block is judged at its widest: a test that splits no block of 1024 threads splits none
    widest = (launch.block[0] * (MAX_BLOCK_THREADS // launch.threads_per_block), *launch.block[1:]) \
        if "block" in launch.guessed else launch.block
    large = replace(launch, block=widest,
                    args={**launch.args, **{name[4:]: value for name, value in judged_at.items()}})
    arguments = [f"arg:{name}" for name in launch.args if f"arg:{name}" not in made_up | fixed]
    sampler, dependence = divergence_sampler(kernel, large, arguments), Dependence.of(kernel)
    again = dict(uniformity)
    for branch, context in access_graph.branches(graph):
        names = free_symbols(branch.condition)
        local = all(name in made_up | fixed | multiples.keys() or name.split(".")[0] in _BLOCK_LOCAL
                    for name in names)
        # a made-up argument only in a test against thread indices alone; a fixed one or a host multiple in any
        judged_again = local if names & made_up else bool(names & (fixed | multiples.keys()))
        if judged_again and not has_opaque(branch.condition) and not loads_in(branch.condition):
            batch = sampler.batch(context)
            again[branch.id] = _worst(branch_uniformity(substitute(branch.condition, case), batch, dependence,
                                                        arguments, block_given=True) for case in cases)
    for loop, context in access_graph.loops(graph):
        parts = (loop.init, loop.condition, loop.update)
        if any(free_symbols(part) & (multiples.keys() | fixed) for part in parts) and \
                not any(has_opaque(part) or loads_in(part) for part in parts):
            batch = sampler.exits(context, loop)
            again[loop.id] = _worst(_loop_again(loop, batch, dependence, arguments, case) for case in cases)
    return again


def _loop_again(loop: Loop, batch: Batch, dependence: Dependence, arguments: list[str],
                multiples: dict[str, Expr]) -> BranchUniformity:
    """A loop on a host multiple judged with it as any multiple of its constant: `for (i = tid;
    i < n; i += 256)` with n = k * 1024 runs the same trips in every thread of a 256-thread block;
    on a fixed argument, at its value (a grid-stride loop over n = 5120 with 512 threads runs 10
    trips in every thread).  Both exist only under a block the host or the user gave."""
    step = None if loop.step is None else substitute(loop.step, multiples)
    loop = replace(loop, init=substitute(loop.init, multiples), condition=substitute(loop.condition, multiples),
                   update=substitute(loop.update, multiples), step=step)
    return branch_uniformity(loop.condition, batch, dependence, arguments, loop, block_given=True)


def hazards(kernel: Kernel, graph: nx.DiGraph, launch: Launch, uniformity: dict[int, BranchUniformity],
            broadcast_lanes: dict[int, float], aggregated_atomics: dict, others: bool = True,
            races: bool = True) -> list[Hazard]:
    """Every synchronisation hazard, in source order: races (`races`) and the others (`others`).
    `uniformity` is per branch/loop id; `broadcast_lanes` gives, for accesses whose lanes share one
    address, the lanes per request; `aggregated_atomics` is the target architecture's
    Arch.aggregated_atomics.  Divergent synchronisation must also show with made-up or fixed
    arguments at one value, and split a block, not only warps of it (_concretely)."""
    samplers: dict[tuple, Sampler] = {}

    def lanes(values: dict[str, float]) -> Sampler:  # the uniformity analysis's lanes, made when a shuffle asks
        key = tuple(sorted(values.items()))
        if key not in samplers:
            at = replace(launch, args={**launch.args, **{name[4:]: value for name, value in values.items()}})
            samplers[key] = divergence_sampler(kernel, at, [f"arg:{name}" for name in at.args])
        return samplers[key]

    given = {f"arg:{name}" for name, source in launch.arg_sources.items() if source == "cli"} | _fixed_arguments(launch)
    free = frozenset(f"arg:{name}" for name in launch.args) - given
    divergent = [*barrier_divergence(kernel, uniformity), *divergent_full_mask(kernel, uniformity, lanes, free)] \
        if others else []
    if divergent:
        large = _concretely(kernel, graph, launch, uniformity)
        again = {(h.kind, h.line, h.column) for h in (*barrier_divergence(kernel, large),
                                                      *divergent_full_mask(kernel, large, lanes, free))}
        divergent = [h for h in divergent if (h.kind, h.line, h.column) in again]
    found = [*divergent, *_races(kernel, graph, launch)] if races else divergent
    if others:
        found += [*redundant_barriers(kernel), *atomic_contention(broadcast_lanes, kernel, uniformity,
                                                                  aggregated_atomics)]
    return in_order(found)


def in_order(found: list[Hazard]) -> list[Hazard]:
    """Hazards without repeats, in source order (the report's order, however many passes found them)."""
    return sorted(set(found), key=lambda h: (h.line, h.column, KINDS.index(h.kind), h.message))
