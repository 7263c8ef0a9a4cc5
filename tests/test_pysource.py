"""Candidates are parsed from worker threads: `pysource.parse` keeps two parses from overlapping, which
CPython 3.11's `ast.parse` does not survive (gh-106905: `SystemError: AST constructor recursion depth
mismatch`, seen once in this suite)."""

from __future__ import annotations

import ast
import gc
import re
import sys
import threading
from pathlib import Path

import pytest

from cudaperf.rewards.execution.pysource import parse

PACKAGE = Path(__file__).resolve().parents[1] / "cudaperf"


def _overlapping(parse_fn, wait: float = 0.3) -> list[Exception]:
    """One parse paused by a garbage collection in its middle (a finalizer that releases the GIL) while
    another thread parses: the errors either raised."""
    paused, other_done = threading.Event(), threading.Event()
    errors: list[Exception] = []

    class Pause:
        def __init__(self):
            self.cycle = self       # garbage only a collection frees

        def __del__(self):
            paused.set()
            other_done.wait(wait)

    def other():
        if paused.wait(5.0):
            try:
                parse_fn("x = [1, (2, 3)]\n" * 5)
            except SystemError as exc:
                errors.append(exc)
        other_done.set()

    thread = threading.Thread(target=other)
    thread.start()
    threshold = gc.get_threshold()
    gc.collect()
    gc.set_threshold(1)             # the next allocation collects, the parse's own included
    try:
        Pause()
        try:
            parse_fn("def f():\n" + "    y = [[a, (b, c)] for a in z]\n" * 200)
        except SystemError as exc:
            errors.append(exc)
    finally:
        gc.set_threshold(*threshold)
    thread.join()
    return errors


def test_parses_never_overlap_across_threads():
    assert [e for _ in range(5) for e in _overlapping(parse)] == []


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the overlap is harmless elsewhere")
def test_the_bare_parse_fails_when_two_threads_overlap():
    """What `parse` is for: the same race through `ast.parse` breaks it on CPython 3.11."""
    errors = [e for _ in range(5) for e in _overlapping(ast.parse)]
    assert errors and all("recursion depth mismatch" in str(e) for e in errors)


def test_the_package_parses_python_only_through_pysource():
    """One way to parse: `ast.parse` appears in pysource.py and, outside the threaded side, the analyzer's
    `--buffer` size expressions (the analyzer imports nothing of rewards; the CLI parses them on its main
    thread)."""
    callers = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
                     if re.search(r"\bast\.parse\(", p.read_text()))
    assert callers == ["analysis/dynamic/buffers.py", "rewards/execution/pysource.py"]
