"""Python source parsed one thread at a time.

CPython 3.11 keeps the counter `ast.parse` uses to balance its recursion checks in interpreter-wide
state.  Two threads building AST objects at once corrupt it (a garbage collection in the middle of one
parse is enough: a finalizer that releases the GIL lets the other thread in), and the parse raises
`SystemError: AST constructor recursion depth mismatch` (CPython gh-106905).  The engine and the
rewards read candidates from worker threads, so every parse of a candidate goes through `parse`."""

from __future__ import annotations

import ast
import threading

_one_at_a_time = threading.Lock()


def parse(source: str, mode: str = "exec") -> ast.AST:
    """`ast.parse(source, mode=mode)`, never beside another thread's parse."""
    with _one_at_a_time:
        return ast.parse(source, mode=mode)
