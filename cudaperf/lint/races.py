"""shared-race: two threads of a block touch the same shared word, at least one writing, with no
barrier between them.

The kernel's statements are cut into *epochs* at block barriers (in program order; a loop body's
last epoch runs into its first one on the next iteration, which is how a tiled loop without its
second barrier races).  Within an epoch, every shared write is checked against every shared
access of the same array: their sampled lanes (same block) are joined on the 4-byte word they
touch, and a word reached by two different warps in the same block and the same iteration of
every barrier-separated loop is a race.
"""

from __future__ import annotations

import numpy as np

from ..analysis.ir import Access, Barrier, Branch, Loop, walk
from ..analysis.sampling import Sampler, evaluate_on
from .rules import Rule, rule

MAX_PAIRS = 2000  # write/access pairs examined per kernel (machine-generated code can hold thousands)


def _epochs(stmts, current: list, done: list) -> list:
    """Split statements into groups of shared accesses separated by block barriers."""
    for s in stmts:
        if isinstance(s, Barrier) and s.scope == "block":
            done.append(current)
            current = []
        elif isinstance(s, Access) and s.space == "shared":
            current.append(s)
        elif isinstance(s, Branch):
            current = _epochs(s.then, current, done)
            current = _epochs(s.orelse, current, done)
        elif isinstance(s, Loop):
            inner_done: list = []
            tail = _epochs(s.body, [], inner_done)
            if inner_done:  # the body's last epoch meets its first on the next iteration
                inner_done[0] = tail + inner_done[0]
                current = current + inner_done[0]
                done.append(current)
                done.extend(inner_done[1:])
                current = []
            else:
                current = current + tail
    return current


def _separating_loops(report, access: Access) -> list[Loop]:
    """Enclosing loops with a block barrier in their body: their iterations are ordered."""
    context = report.graph.nodes[access.id]["context"]
    return [c for c in context if isinstance(c, Loop) and any(
        isinstance(s, Barrier) and s.scope == "block" for s, _ in walk(c.body))]


def _touches(report, sampler: Sampler, access: Access, loops: list[Loop]):
    """(epoch key, word, warp) of every sampled lane performing `access`; the key holds the block
    and the iteration of every loop whose iterations a barrier separates."""
    context = report.graph.nodes[access.id]["context"] if access.id in report.graph else None
    if context is None:
        return None
    batch = sampler.batch(context)
    address = evaluate_on(access.offset, batch)
    active = batch.active & ~np.isnan(address)
    if not active.any():
        return None
    env = batch.env
    shape = batch.active.shape
    key = sum(np.broadcast_to(env[f"bid.{a}"], shape) * m for a, m in (("x", 1), ("y", 1e5), ("z", 1e10)))
    for n, loop in enumerate(loops):
        key = key * 1e3 + np.broadcast_to(env.get(loop.iteration, 0.0), shape) + n
    block_x, block_y = env["bdim.x"], env["bdim.y"]
    linear = env["tid.x"] + block_x * (env["tid.y"] + block_y * env["tid.z"])
    warp = np.floor(np.broadcast_to(linear, shape) / 32)
    words = np.floor(address / 4)
    return key[active], words[active], warp[active]


def _conflict(a, b) -> bool:
    """Do two sampled lane sets touch one word in one epoch of one block from different warps?
    (Lanes of one warp are the warp-synchronous case, a rule of its own: racecheck ignores it too.)"""
    side_a = np.unique(np.stack(a, axis=1), axis=0)  # (epoch key, word, warp)
    side_b = np.unique(np.stack(b, axis=1), axis=0)
    words, warps = np.unique(np.unique(np.concatenate([side_a, side_b]), axis=0)[:, :2], axis=0,
                             return_counts=True)
    contested = {tuple(w) for w in words[warps > 1]}
    both = {tuple(w) for w in side_a[:, :2]} & {tuple(w) for w in side_b[:, :2]}
    return bool(contested & both)


@rule
class SharedRace(Rule):
    code, name, severity = "CP404", "shared-race", "error"
    summary = "Two threads of a block access the same shared-memory word, one writing, with no barrier between."
    why = ("Without a barrier, the reader may see the value before or after the write depending on warp "
           "scheduling: results change from run to run.  A tiled loop missing its second __syncthreads() "
           "overwrites the tile while other warps still read it.")
    example = "s[t] = x; y = s[(t + 1) % 256];   // no __syncthreads() between"
    fix = "Put __syncthreads() between the write and the other threads' accesses (and at the end of tiled loops)."

    def check(self, report):
        done: list = []
        last = _epochs(report.kernel.body, [], done)
        done.append(last)
        lanes: dict[tuple, tuple | None] = {}  # sampled lanes per (access, separating loops)
        sampler = Sampler(report.launch)  # the same deterministic samples the analyses used
        pairs = 0
        for epoch in done:
            for w in (a for a in epoch if a.kind == "store"):
                loops = _separating_loops(report, w)
                for other in epoch:
                    if other.array != w.array or other.kind == "atomic" or (other.kind == "store" and other.id < w.id):
                        continue
                    pairs += 1
                    if pairs > MAX_PAIRS:
                        return
                    sides = []
                    for access in (w, other):
                        key = (access.id, tuple(loop.id for loop in loops))
                        if key not in lanes:
                            lanes[key] = _touches(report, sampler, access, loops)
                        sides.append(lanes[key])
                    if sides[0] is not None and sides[1] is not None and _conflict(*sides):
                        what = "written by several threads" if other is w else \
                            f"{other.kind} at line {other.line} by another thread"
                        yield w.line, w.column, f"shared `{w.array}` written here and {what}, with no barrier between"
