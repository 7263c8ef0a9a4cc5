"""Warp instructions a launch issues, estimated by kind: what the SM schedulers spend their slots on.

Memory requests and FLOPs are a small part of what a naive kernel issues: a convolution with
runtime-sized loops and 64-bit index math runs 25 to 44 instructions per FMA (Nsight Compute's
`sm__inst_executed.sum`, tests/data/h100/kb_fresh8/ncu), a register-blocked one about one.  The
difference is the integer work around the memory operations, and where nvcc puts it:

- `memory`, `arithmetic`, `collective`, `barrier`: one instruction per warp that executes the
  statement (floating-point operations as `work.py` counts them, per warp rather than per thread);
- `address`: the integer operations of an address that change with a loop nvcc keeps rolled,
  once per iteration of the innermost such loop and once per distinct expression (nvcc hoists
  what does not change and shares what two accesses compute alike), the others once per warp
  before the first loop; a fully unrolled loop's counter folds into the instruction's immediate
  offset; a division or remainder by a runtime value costs INTEGER_DIVISION;
- `loop`: the increment, test and branch of each iteration of a rolled loop (per `#pragma unroll N`
  group of N iterations);
- `branch`: each comparison of a condition and its branch;
- a shared-memory atomic nvcc has no instruction for (a float or double `atomicAdd`, 64-bit
  arithmetic and bitwise ones) is a compare-and-swap loop: a load, the operation, the CAS, its
  test and branch (SHARED_CAS_LOOP), once per warp (the retries of lanes that collide not counted).

Every count is over the sampled warp executions of the statement's context (`sampling.Sampler`),
so trip counts, guards and the grid are those the memory analyses see."""

from __future__ import annotations

from collections import Counter

import networkx as nx

from . import graph as access_graph
from .ir import Access, Barrier, Branch, Collective, Compute, Loop
from .sampling import Batch, Sampler, comparisons
from .symbolic import RELATIONS, Const, Expr, Op, Sym, free_symbols

KINDS = ("memory", "arithmetic", "address", "loop", "branch", "collective", "barrier")
FULL_UNROLL_TRIPS = 32   # nvcc unrolls a loop of a compile-time trip count up to about this many iterations
LOOP_CONTROL = 3         # increment, compare, branch
INTEGER_DIVISION = 20    # a division or remainder by a runtime value (sm_90 SASS: I2F, MUFU.RCP, F2I, IMAD.HI, fixes)
# Shared-memory atomics compiled as a CAS loop (LDS, the operation, ATOMS.CAST.SPIN, ISETP, BRA) by nvcc 13
# -O3 for every arch from sm_75 to sm_120 alike (cuobjdump); 32-bit integer ones and 64-bit exchanges are
# single ATOMS instructions.
SHARED_CAS_ATOMICS = frozenset({"atomicAdd.f32", "atomicAdd.f64", *(f"atomic{op}.i64" for op in
                                ("Add", "Min", "Max", "And", "Or", "Xor"))})
SHARED_CAS_LOOP = {"memory": 1, "arithmetic": 1, "branch": 2}  # beyond the ATOMS: the LDS, the operation, test, branch


def warp_executions(batch: Batch) -> float:
    """Warps (with any lane active) that execute a statement in this context, over the launch."""
    return float((batch.active.any(axis=1) * batch.weight).sum())


def constant_trips(loop: Loop) -> int | None:
    """The trip count when it is known at compile time (constant start, bound and step), else None."""
    condition, step = loop.condition, loop.step
    if not (isinstance(loop.init, Const) and isinstance(step, Const) and step.value != 0
            and isinstance(condition, Op) and condition.name in RELATIONS):
        return None
    counters = [a for a in condition.args if isinstance(a, Sym) and a.name == loop.counter]
    bounds = [a for a in condition.args if isinstance(a, Const)]
    if len(counters) != 1 or len(bounds) != 1:
        return None
    trips = (bounds[0].value - loop.init.value) / step.value
    return max(0, int(abs(trips)) + (1 if condition.name in ("<=", ">=") else 0))


def unroll_factor(loop: Loop) -> float:
    """Iterations per copy of the loop's control nvcc emits: the whole trip when it unrolls fully."""
    trips = constant_trips(loop)
    if trips is not None and (loop.unroll == 0 or trips <= FULL_UNROLL_TRIPS or (loop.unroll or 0) >= trips):
        return float("inf")
    return float(loop.unroll) if loop.unroll and loop.unroll > 1 else 1.0


def _cost(expr: Op) -> int:
    """Instructions of one integer operation: a division or remainder by a value nvcc does not know
    expands into a reciprocal and its corrections."""
    if expr.name in ("/", "%") and not isinstance(expr.args[-1], Const):
        return INTEGER_DIVISION
    return 1


def _address_ops(g: nx.DiGraph, sampler: Sampler, rolled: set[int], issuing: list[tuple[Access, tuple]]) -> float:
    """Integer operations of the addresses the kernel issues, each at the innermost rolled loop it
    changes with, or once per warp before the first loop when it changes with none."""
    placed: set[tuple[int | None, str]] = set()
    walked: set[tuple[int, tuple[int, ...]]] = set()   # (node, rolled loops around it): shared subexpressions once
    total = 0.0
    for access, context in issuing:
        levels = [(i, frozenset((c.counter, c.iteration))) for i, c in enumerate(context)
                  if isinstance(c, Loop) and c.id in rolled]
        entry = next((i for i, c in enumerate(context) if isinstance(c, Loop)), len(context))
        around = tuple(context[i].id for i, _ in levels)
        stack: list[Expr] = [access.offset]
        while stack:
            expr = stack.pop()
            if not isinstance(expr, Op) or (id(expr), around) in walked:
                continue
            walked.add((id(expr), around))
            stack.extend(expr.args)
            symbols = free_symbols(expr)
            level = next((i for i, names in reversed(levels) if symbols & names), None)
            key = (None if level is None else context[level].id, str(expr))
            if key not in placed:
                placed.add(key)
                executing = context[:entry] if level is None else context[:level + 1]
                total += _cost(expr) * warp_executions(sampler.batch(executing))
    return total


def issued(g: nx.DiGraph, sampler: Sampler) -> dict[str, float]:
    """Estimated warp instructions per launch, by kind (KINDS)."""
    totals: Counter[str] = Counter()
    rolled: set[int] = set()
    for loop, context in access_graph.statements(g, Loop):
        factor = unroll_factor(loop)
        if factor != float("inf"):
            rolled.add(loop.id)
            totals["loop"] += LOOP_CONTROL * warp_executions(sampler.batch(context + (loop,))) / factor
    for branch, context in access_graph.statements(g, Branch):
        tests = 1 + sum(1 for _ in comparisons(branch.condition))
        totals["branch"] += tests * warp_executions(sampler.batch(context))
    issuing = [(access, context) for access, context in access_graph.statements(g, Access)
               if access.space in ("global", "shared") or _moves_with(access.offset, context, rolled)]
    totals["memory"] = sum(warp_executions(sampler.batch(context)) for _, context in issuing)
    for access, context in issuing:
        if access.space == "shared" and access.operation in SHARED_CAS_ATOMICS:
            warps = warp_executions(sampler.batch(context))
            for kind, count in SHARED_CAS_LOOP.items():
                totals[kind] += count * warps
    for kind, statement_type in (("collective", Collective), ("barrier", Barrier)):
        totals[kind] = sum(warp_executions(sampler.batch(context))
                           for _, context in access_graph.statements(g, statement_type))
    for stmt, context in access_graph.statements(g, Compute):
        totals["arithmetic"] += sum(stmt.counts.values()) * warp_executions(sampler.batch(context))
    totals["address"] = _address_ops(g, sampler, rolled, issuing)
    return {kind: totals[kind] for kind in KINDS}


def _moves_with(offset: Expr, context: tuple, rolled: set[int]) -> bool:
    """Does a local or constant address change with a rolled loop?  Otherwise nvcc keeps a local array
    in registers and a constant word as an instruction's operand: no memory instruction of its own."""
    names = {n for c in context if isinstance(c, Loop) and c.id in rolled for n in (c.counter, c.iteration)}
    return bool(names & free_symbols(offset))
