"""Lowering: a kernel's syntax tree -> IR (``ir.py``) with symbolic byte offsets.

The lowering executes the kernel body symbolically, statement by statement, keeping an
environment of what every local variable holds: a scalar expression, a pointer (array +
byte offset + pointee type) or a memory location.  Reading a location records a load,
writing it a store; ``__device__`` helpers are inlined at their call sites, macros expanded,
and loop counters become symbols whose per-iteration values the analyses sample.

One ``Lowerer`` is composed of one part per kind of construct, each in its own module:
``statements`` (blocks, branches, switch, preprocessor arms), ``loops``, ``declarations``,
``expressions``, ``calls`` (calls by name: a dispatch table), ``synchronisation`` (barriers,
cooperative groups, warp collectives, inline PTX), ``memory`` (loads, stores, atomics, struct
copies) and ``expansions`` (macros used in kernel bodies); ``values`` holds what the lowering
tracks and ``syntax`` the questions it asks of syntax trees.
"""

from .expansions import snippet
from .lowerer import Lowerer
from .values import Env, Group, Loc, LoweringError, Ptr, Scalar, UnhandledSyntax, Val

__all__ = ["Env", "Group", "Loc", "Lowerer", "LoweringError", "Ptr", "Scalar", "UnhandledSyntax", "Val", "snippet"]
