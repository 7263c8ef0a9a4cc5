"""Synchronisation rules: barriers some threads never reach, barriers that order nothing, and
atomics every lane aims at one address."""

from __future__ import annotations

from ..analysis.ir import Access, Barrier, Branch, Kernel, Loop, walk
from .rules import Rule, rule


def _thread_level_lines(report) -> set[int]:
    return {b.line for b in report.branches if b.result.uniformity == "thread" and b.kind != "loop"}


@rule
class BarrierDivergence(Rule):
    code, name, severity = "CP401", "barrier-divergence", "error"
    summary = "A block-level barrier that not every thread of the block reaches."
    why = ("`__syncthreads()` must be reached by all threads of the block or by none: under a thread-divergent "
           "condition, or after an early return some threads took, the block hangs or silently misbehaves.")
    example = "if (threadIdx.x < 16) { s[threadIdx.x] = v; __syncthreads(); }"
    fix = "Move the barrier out of the divergent branch (guard the work, not the barrier)."

    def check(self, report):
        divergent = _thread_level_lines(report)
        for stmt, context in walk(report.kernel.body):
            if not isinstance(stmt, Barrier) or stmt.scope != "block":
                continue
            guard = next((b for b, _ in (c for c in context if isinstance(c, tuple)) if b.line in divergent), None)
            if guard is not None:
                how = "after an early exit on" if guard.exits else "under"
                yield stmt.line, stmt.column, f"`{stmt.name}` {how} thread-dependent `{guard.text}` (line {guard.line})"


def _orders_memory(stmts) -> bool:
    return any(isinstance(s, Access) and s.space in ("shared", "global") for s, _ in walk(stmts))


def _redundant(body: list, in_loop: bool, ends_kernel: bool):
    """Barriers in one statement list with no shared/global access since the previous barrier of the
    list (wrapping round for loop bodies), or with none after them when the list ends the kernel."""
    barriers = [i for i, s in enumerate(body) if isinstance(s, Barrier) and s.scope == "block"]
    for n, i in enumerate(barriers):
        previous = barriers[n - 1] if n else None
        before = body[previous + 1:i] if previous is not None else body[:i]
        if previous is None and in_loop:
            before = body[barriers[-1] + 1:] + before
        after = body[i + 1:]
        if not _orders_memory(before) and (previous is not None or in_loop):
            yield body[i], "orders no shared or global access since the previous barrier"
        elif ends_kernel and not _orders_memory(after):
            yield body[i], "ends the kernel: no access after it needs ordering"


@rule
class RedundantBarrier(Rule):
    code, name, severity = "CP402", "redundant-barrier", "warning"
    summary = ("A block barrier with no memory access to order: right after another barrier, or at the end of "
               "the kernel.")
    why = "Every barrier stalls the block until its slowest warp arrives; one that orders nothing only costs time."
    example = "s[t] = v; __syncthreads(); __syncthreads();   // the second orders nothing"
    fix = "Delete it."

    def check(self, report):
        kernel: Kernel = report.kernel
        lists = [(kernel.body, False, True)]
        for stmt, _ in walk(kernel.body):
            if isinstance(stmt, Loop):
                lists.append((stmt.body, True, False))
            elif isinstance(stmt, Branch):
                lists += [(stmt.then, False, False), (stmt.orelse, False, False)]
        for body, in_loop, ends_kernel in lists:
            for barrier, why in _redundant(body, in_loop, ends_kernel):
                yield barrier.line, barrier.column, f"`{barrier.name}` {why}"


@rule
class AtomicContention(Rule):
    code, name, severity = "CP403", "atomic-contention", "warning"
    summary = "An atomic that every active lane of a warp applies to the same address."
    why = "Atomics to one address serialise in the L2: a grid-wide counter turns millions of updates into a queue."
    example = "atomicAdd(&sum[0], x[i]);"
    fix = "Reduce within the warp (__shfl_down_sync) or block (shared memory) first, then one atomic per warp or block."

    def check(self, report):
        for a in report.accesses:
            if a.access.kind == "atomic" and a.pattern == "broadcast" and a.access.space == "global":
                yield (a.access.line, a.access.column,
                       f"`{a.access.text}`: all lanes of a warp update one address of `{a.access.array}`")
