"""The per-kernel analysis budget: a kernel whose analysis runs past it is reported with what
was finished and a note, so one pathological kernel cannot stall a whole-project lint.

The budget is CPU time of the analysing thread (time.thread_time), so a machine shared with
other jobs does not cut analyses short.  It is cooperative: the lowering checks it per statement
and the analyses per access, branch and loop (`check`).  KERNEL_BUDGET_S is documented in
docs/lint.md.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

KERNEL_BUDGET_S = 10.0
CHECK_EVERY = 64  # a power of two
_state = threading.local()
_calls = 0


class BudgetExceeded(Exception):
    """The current kernel's analysis ran past its budget."""


@contextmanager
def kernel_budget(seconds: float | None = KERNEL_BUDGET_S) -> Iterator[None]:
    """Run the body under a deadline (None: unbounded); nested budgets keep the earlier deadline."""
    previous = getattr(_state, "deadline", None)
    deadline = None if seconds is None else time.thread_time() + seconds
    _state.deadline = deadline if previous is None else min(previous, deadline or previous)
    try:
        yield
    finally:
        _state.deadline = previous


def check() -> None:
    """Raise BudgetExceeded once the current deadline has passed.  Called per statement, so it
    is cheap: the deadline and the thread's CPU clock (a system call) are read every 64th call."""
    global _calls
    _calls += 1
    if _calls & (CHECK_EVERY - 1):
        return
    deadline = getattr(_state, "deadline", None)
    if deadline is not None and time.thread_time() > deadline:
        raise BudgetExceeded
