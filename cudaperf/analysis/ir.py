"""The kernel IR: structured control flow with memory accesses, loops, branches and barriers.

The lowering (``lower/``) turns a syntax tree into this form; every index is a byte offset
expression over thread/block coordinates, loop counters and kernel arguments
(``symbolic.py``).  The tree keeps program order and nesting, which is all the memory analyses
need; ``graph.py`` turns it into the networkx access graph the analyses walk.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .ctype import CType
from .symbolic import Expr


@dataclass(eq=False)
class Access:
    """One memory instruction in the source: executed by a warp, it is one request."""

    id: int
    line: int
    column: int
    space: str  # global | shared | local | constant
    kind: str  # load | store | atomic
    array: str
    offset: Expr  # byte offset from the array's base
    size: int  # bytes moved per thread
    type_name: str
    text: str
    value: Expr | None = None  # what a plain store writes (None: a read-modify-write, a struct, unknown)
    # an atomic's function and operand type, scope suffix dropped (`atomicAdd.i32` for
    # atomicAdd_system on an int, `atomicAdd.f32`), and whether the code reads its old value
    operation: str = ""
    returns: bool = False


@dataclass(eq=False)
class Barrier:
    id: int
    line: int
    column: int
    name: str  # __syncthreads, __syncwarp, block.sync(), bar.sync, ...
    scope: str  # grid | block | warp (a grid barrier orders the block too)
    full_mask: bool | None = None  # __syncwarp: names every lane (None: mask unknown or not a warp barrier)
    # what removing it could break beyond the accesses around it: `bar.sync 1, 64` waits for a
    # subset of threads by design; __syncthreads_count/and/or return a vote; a barrier in an
    # inlined helper serves every caller
    removable: bool = True
    counted: bool = False  # a named barrier for a thread count (`bar.sync id, n`): skipping it is the design


@dataclass(eq=False)
class OpaqueMemory:
    """A memory operation whose addresses the lowering cannot follow: wmma fragments, cp.async,
    memcpy_async, library block primitives (cub), a callee it cannot see given a pointer.  It
    counts as an access for the barriers around it and joins no race."""

    id: int
    line: int
    column: int
    space: str  # shared | global | unknown (behind a pointer the lowering lost) | texture (texture and surface fetches)
    name: str


@dataclass(eq=False)
class Collective:
    """A warp-synchronous intrinsic (`__shfl_*_sync`, `__ballot_sync`, ...): every lane named in
    its mask must reach it together."""

    id: int
    line: int
    column: int
    name: str
    full_mask: bool | None  # the mask is the constant 0xffffffff (None: not a constant)
    # a shuffle's lane operand (source lane, delta or xor mask) and width (None: the default 32)
    lane: Expr | None = None
    width: Expr | None = None


CARRIED = "carry"  # prefix of the symbols that stand for loop-carried values (Loop.carried)


@dataclass(eq=False)
class Loop:
    id: int
    line: int
    column: int
    text: str
    counter: str  # symbol holding the counter's value in this iteration
    iteration: str  # symbol holding the iteration number (0, 1, ...)
    init: Expr
    update: Expr  # next counter value, in terms of `counter`
    condition: Expr  # in terms of `counter`; evaluated before each iteration
    step: Expr | None  # loop-invariant increment when the counter is affine
    at_least_once: bool = False  # do-while
    unroll: int | None = None
    body: list[Stmt] = field(default_factory=list)
    # a variable the body reassigns (not the counter), by the symbol standing for its value in an
    # iteration: what that value is computed from (its value before the loop, after an iteration, the condition)
    carried: dict[str, tuple[Expr, ...]] = field(default_factory=dict)


@dataclass(eq=False)
class Branch:
    id: int
    line: int
    column: int
    text: str
    condition: Expr
    then: list[Stmt] = field(default_factory=list)
    orelse: list[Stmt] = field(default_factory=list)
    exits: bool = False  # the `then` side leaves the block (early return/continue/break)
    returns: bool = False  # ... by the kernel's own `return` (not an inlined helper's): its threads exit
    kind: str = "if"  # if | select (a `?:` whose sides read memory) | case
    one_block: bool = False  # only one block of the grid takes the then side (the last block's ticket: tickets.py)


@dataclass(eq=False)
class Compute:
    """Floating-point instructions one statement executes per thread, e.g. {"fp32_fma": 2}."""

    id: int
    line: int
    column: int
    counts: dict[str, int]


Stmt = Access | OpaqueMemory | Barrier | Collective | Loop | Branch | Compute


@dataclass
class Param:
    name: str
    type: CType  # the pointee for pointers
    pointer: bool
    line: int


@dataclass
class SharedArray:
    name: str
    type: CType
    dynamic: bool
    line: int


@dataclass
class Kernel:
    name: str
    line: int
    column: int
    params: list[Param]
    template_params: list[str]
    shared: list[SharedArray]
    body: list[Stmt]
    launch_bounds: tuple[int, ...] = ()
    # launch symbols the kernel reads (tid.y, gdim.x, ...); tid.linear / bid.linear: a rank over
    # every axis (thread_rank()), which reads them all but says nothing of how many the launch has
    uses: frozenset[str] = frozenset()
    notes: list[str] = field(default_factory=list)
    spun_on: frozenset[str] = frozenset()  # volatile arrays a loop waits on: a hand-off protocol, not a race


def walk(stmts: list[Stmt], ancestors: tuple[Stmt, ...] = ()):
    """Yield (statement, ancestors) depth-first in program order; for branches the ancestors
    record which side through ``(branch, True|False)`` pairs."""
    for s in stmts:
        yield s, ancestors
        if isinstance(s, Loop):
            yield from walk(s.body, ancestors + (s,))
        elif isinstance(s, Branch):
            yield from walk(s.then, ancestors + ((s, True),))
            yield from walk(s.orelse, ancestors + ((s, False),))


def statements(kernel: Kernel) -> list[tuple[Stmt, tuple]]:
    """`walk(kernel.body)`, listed once per kernel: the passes and rules walk a kernel some twenty
    times.  A lowered kernel's body is not changed afterwards (a changed kernel is a new one)."""
    found = kernel.__dict__.get("_statements")
    if found is None:
        found = kernel.__dict__["_statements"] = list(walk(kernel.body))
    return found
