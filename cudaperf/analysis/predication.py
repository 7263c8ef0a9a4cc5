"""nvcc's if-conversion, as instruction counters see it.

A short ``if`` body is compiled to predicated instructions instead of a jump: every warp that
reaches the ``if`` issues the instruction, even when none of its lanes' predicates are on.
Nsight Compute's shared-memory instruction counters (``smsp__inst_executed_op_shared_*``) count
those issues; the L1 request counters for global memory do not (an all-off request never
reaches L1).  Measured on the H200: a tree reduction's ``if (tid < stride) s[tid] += ...``
issues its LDS/STS in all 8 warps of a 256-thread block at every step.
"""

from __future__ import annotations

from .ir import Access, Barrier, Branch, Loop, Stmt

MAX_PREDICATED_ACCESSES = 4  # memory instructions a body may hold and still be if-converted


def _small(stmts: list[Stmt]) -> tuple[bool, int]:
    count = 0
    for s in stmts:
        if isinstance(s, (Loop, Barrier)):
            return False, 0
        if isinstance(s, Access):
            count += 1
        elif isinstance(s, Branch):
            ok, inner = _small(s.then + s.orelse)
            if not ok:
                return False, 0
            count += inner
    return count <= MAX_PREDICATED_ACCESSES, count


def if_convertible(stmts: list[Stmt]) -> bool:
    """Could nvcc turn these statements into predicated instructions (no loop, no barrier, few
    memory instructions)?"""
    return _small(stmts)[0]


def predicated(branch: Branch, tail: bool = False) -> bool:
    """Is this branch likely compiled to predicated instructions (no jump)?  A branch that ends
    the kernel (`tail`) becomes an early exit instead: warps with no lane left never issue."""
    return not tail and not branch.exits and if_convertible(branch.then + branch.orelse)


def tail_branches(body: list[Stmt]) -> set[int]:
    """Branches after which the kernel ends (the last statement, recursively into its sides)."""
    tails: set[int] = set()
    while body and isinstance(body[-1], Branch):
        last = body[-1]
        tails.add(last.id)
        tails |= tail_branches(last.then)
        body = last.orelse
    return tails


def issue_context(context: tuple, tails: set[int]) -> tuple:
    """The context whose warps issue an instruction: enclosing predicated branches don't filter."""
    end = len(context)
    while end and isinstance(context[end - 1], tuple) and \
            predicated(context[end - 1][0], context[end - 1][0].id in tails):
        end -= 1
    return context[:end]
